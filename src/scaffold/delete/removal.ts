/** A scaffold's lines in a file that stays: taken out, the user's lines kept. */
export interface SnippetRemoval {
  readonly path: string;
  /** The `+tsoperator:scaffold:<marker>` the snippet was inserted at, for the note. */
  readonly marker: string;
  readonly snippet: string;
  /** A single line starting with this is the snippet too (see removeSnippet). */
  readonly sameWhen?: string;
  /**
   * The identifier the snippet uses, bound by the resource's own import line: when the file still
   * names it once that import is out, it is another resource's (a kind of the same name in another
   * group), and the line is left for the user.
   */
  readonly binding?: string;
}

/** What deleting an API takes out of the project, collected before anything is staged. */
export interface Removal {
  /** Files the scaffold wrote: deleted when still as generated, else refused (or kept aside). */
  readonly files: string[];
  /** Files `tsoperator manifests` writes, which it overwrites anyway: deleted whatever they hold. */
  readonly outputs: string[];
  readonly snippets: SnippetRemoval[];
}

/** An empty removal, for the parts of the API to add to. */
export function newRemoval(): Removal {
  return { files: [], outputs: [], snippets: [] };
}

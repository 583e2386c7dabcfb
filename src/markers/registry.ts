import type { MarkerDefinition, MarkerTarget } from './definition.ts';

/** The name a marker is looked up by, and the text of its arguments, split as controller-gen splits them. */
export interface MarkerName {
  /** Everything before the first `=`, e.g. `kubebuilder:validation:Minimum` or `kubebuilder:printcolumn:name`. */
  readonly full: string;
  /** `full` without its last `:segment`, the name of a marker whose first argument follows it. */
  readonly short: string;
  /** The text after the first `=`, or '' for a marker without one. */
  readonly rest: string;
  /** Offset of `rest` in the marker text (after the `+`). */
  readonly restOffset: number;
}

/** Splits `kubebuilder:rbac:groups=apps,verbs=get` into names and arguments (text without the `+`). */
export function splitMarkerName(text: string): MarkerName {
  const equals = text.indexOf('=');
  if (equals < 0) return { full: text, short: text, rest: '', restOffset: text.length };
  const full = text.slice(0, equals);
  const colon = full.lastIndexOf(':');
  return {
    full,
    short: colon < 0 ? full : full.slice(0, colon),
    rest: text.slice(equals + 1),
    restOffset: equals + 1,
  };
}

/**
 * Every marker tsoperator understands, each declared once. Lookup follows controller-gen: a marker's
 * full name wins, then the name without its last segment (`+kubebuilder:printcolumn:name=...` is the
 * `kubebuilder:printcolumn` marker with its `name` argument written first).
 */
export class MarkerRegistry {
  readonly #byName = new Map<string, MarkerDefinition[]>();

  constructor(definitions: Iterable<MarkerDefinition> = []) {
    for (const definition of definitions) this.register(definition);
  }

  /** Adds a definition; a name may be declared once per target. */
  register(definition: MarkerDefinition): void {
    const existing = this.#byName.get(definition.name) ?? [];
    const clash = existing.find((d) => d.targets.some((t) => definition.targets.includes(t)));
    if (clash) throw new Error(`marker +${definition.name} is declared twice for the same target`);
    this.#byName.set(definition.name, [...existing, definition]);
  }

  /** The definition a marker text (without `+`) names at `target`, and whether it used the short name. */
  lookup(
    name: MarkerName,
    target: MarkerTarget,
  ): { definition: MarkerDefinition; short: boolean } | undefined {
    const full = this.#forTarget(name.full, target);
    if (full) return { definition: full, short: false };
    const short = this.#forTarget(name.short, target);
    return short ? { definition: short, short: name.short !== name.full } : undefined;
  }

  /** All targets any definition of the name may stand at, to tell "misplaced" from "unknown". */
  targetsOf(name: MarkerName): MarkerTarget[] {
    const definitions = [...(this.#byName.get(name.full) ?? []), ...(this.#byName.get(name.short) ?? [])];
    return [...new Set(definitions.flatMap((d) => d.targets))];
  }

  all(): MarkerDefinition[] {
    return [...this.#byName.values()].flat();
  }

  #forTarget(name: string, target: MarkerTarget): MarkerDefinition | undefined {
    return this.#byName.get(name)?.find((d) => d.targets.includes(target));
  }
}

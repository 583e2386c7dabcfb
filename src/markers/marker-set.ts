import type { MarkerDefinition } from './definition.ts';
import type { SourceLocation } from './diagnostic.ts';

/** One marker found in a source file, with its typed value. */
export interface ParsedMarker<V = unknown> {
  readonly definition: MarkerDefinition<V>;
  readonly value: V;
  readonly location: SourceLocation;
  /** The marker as written, from `+` on, for messages. */
  readonly text: string;
}

/** The markers on one declaration (a package, a type or a field), looked up by definition. */
export class MarkerSet {
  readonly #markers: readonly ParsedMarker[];

  constructor(markers: readonly ParsedMarker[] = []) {
    this.#markers = markers;
  }

  /** Every occurrence of a marker, in source order. */
  get<V>(definition: MarkerDefinition<V>): ParsedMarker<V>[] {
    return this.#markers.filter((m): m is ParsedMarker<V> => m.definition === definition);
  }

  /** The value of the first occurrence, or undefined. */
  value<V>(definition: MarkerDefinition<V>): V | undefined {
    return this.get(definition)[0]?.value;
  }

  has(definition: MarkerDefinition): boolean {
    return this.#markers.some((m) => m.definition === definition);
  }

  all(): readonly ParsedMarker[] {
    return this.#markers;
  }

  /** The markers of both sets; `this` first. */
  concat(other: MarkerSet): MarkerSet {
    return new MarkerSet([...this.#markers, ...other.all()]);
  }
}

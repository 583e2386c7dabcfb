import type { MarkerDefinition, MarkerTarget } from './definition.ts';
import type { MarkerName } from './marker-name.ts';

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

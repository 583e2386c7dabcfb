/**
 * English plurals of lower-cased kind names, following the rules Kubebuilder applies (through its
 * inflection library) so that a kind gets the same resource name in both tools: Policy → policies,
 * Ingress → ingresses, Endpoints stays endpoints.
 */

/** Words whose plural is not formed by a suffix rule. */
const IRREGULAR: Readonly<Record<string, string>> = {
  person: 'people',
  man: 'men',
  woman: 'women',
  child: 'children',
  mouse: 'mice',
  goose: 'geese',
  foot: 'feet',
  tooth: 'teeth',
  ox: 'oxen',
  quiz: 'quizzes',
  index: 'indices',
  vertex: 'vertices',
  matrix: 'matrices',
  criterion: 'criteria',
  datum: 'data',
  medium: 'media',
  leaf: 'leaves',
  half: 'halves',
  knife: 'knives',
  life: 'lives',
  wife: 'wives',
  shelf: 'shelves',
  self: 'selves',
  wolf: 'wolves',
  thief: 'thieves',
  hero: 'heroes',
  potato: 'potatoes',
  tomato: 'tomatoes',
  echo: 'echoes',
  veto: 'vetoes',
};

/** Words that are the same in the singular and the plural. */
const UNCOUNTABLE: ReadonlySet<string> = new Set([
  'endpoints',
  'data',
  'metadata',
  'equipment',
  'information',
  'news',
  'series',
  'species',
  'sheep',
  'fish',
  'deer',
  'aircraft',
  'software',
  'hardware',
  'firmware',
  'middleware',
]);

interface SuffixRule {
  readonly ending: RegExp;
  readonly plural: (word: string) => string;
}

/** Tried in order; the first rule whose ending matches forms the plural. */
const SUFFIX_RULES: readonly SuffixRule[] = [
  // A consonant and an `s` ends a word that is already plural (settings, metrics).
  { ending: /[^aeiosu]s$/, plural: (w) => w },
  { ending: /sis$/, plural: (w) => `${w.slice(0, -2)}es` },
  { ending: /(s|x|z|ch|sh)$/, plural: (w) => `${w}es` },
  { ending: /[^aeiou]y$/, plural: (w) => `${w.slice(0, -1)}ies` },
];

/**
 * The plural of a lower-case word, by the last word of a compound (`networkpolicy` →
 * `networkpolicies`, `machineset` → `machinesets`).
 *
 * @example
 * ```ts
 * pluralize('policy'); // 'policies'
 * ```
 */
export function pluralize(word: string): string {
  const irregular = irregularPlural(word);
  if (irregular !== undefined) return irregular;
  const rule = SUFFIX_RULES.find((r) => r.ending.test(word));
  return rule ? rule.plural(word) : `${word}s`;
}

/** The plural from the tables, matching a whole word or the end of a compound. */
function irregularPlural(word: string): string | undefined {
  for (const uncountable of UNCOUNTABLE) {
    if (word === uncountable || word.endsWith(uncountable)) return word;
  }
  const ending = Object.keys(IRREGULAR)
    .filter((singular) => word === singular || (singular.length > 3 && word.endsWith(singular)))
    .sort((a, b) => b.length - a.length)[0];
  return ending === undefined
    ? undefined
    : `${word.slice(0, word.length - ending.length)}${IRREGULAR[ending]}`;
}

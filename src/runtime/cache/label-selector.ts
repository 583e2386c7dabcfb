/** A parsed label selector: every requirement must hold. */
export type LabelSelector = readonly LabelRequirement[];

/** One requirement of a label selector. */
export interface LabelRequirement {
  readonly key: string;
  readonly op: 'in' | 'notin' | 'exists' | '!';
  readonly values: readonly string[];
}

/**
 * Parses a label selector as the API server reads it: `a=b`, `a==b`, `a!=b`, `a in (x,y)`,
 * `a notin (x)`, `a`, `!a`, joined by commas. Throws on a malformed selector.
 */
export function parseLabelSelector(text: string): LabelSelector {
  const requirements: LabelRequirement[] = [];
  for (const term of splitTerms(text)) {
    const set = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
    if (set) {
      const [, key = '', op, list = ''] = set;
      const values = list
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      requirements.push({ key, op: op === 'notin' ? 'notin' : 'in', values });
      continue;
    }
    const eq = /^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
    if (eq) {
      const [, key = '', op, value = ''] = eq;
      requirements.push({ key, op: op === '!=' ? 'notin' : 'in', values: [value] });
      continue;
    }
    const exists = /^(!?)\s*([^!=\s(),]+)$/.exec(term);
    if (!exists) throw new Error(`Invalid label selector term "${term}" in "${text}"`);
    const [, not, key = ''] = exists;
    requirements.push({ key, op: not ? '!' : 'exists', values: [] });
  }
  return requirements;
}

/** Whether `labels` satisfy every requirement. */
export function matchesLabels(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  for (const { key, op, values } of selector) {
    const value = labels?.[key];
    const ok =
      op === 'exists'
        ? value !== undefined
        : op === '!'
          ? value === undefined
          : op === 'in'
            ? value !== undefined && values.includes(value)
            : value === undefined || !values.includes(value);
    if (!ok) return false;
  }
  return true;
}

/** Splits on the commas outside parentheses. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if ((c === ',' && depth === 0) || i === text.length) {
      const term = text.slice(start, i).trim();
      if (term) terms.push(term);
      start = i + 1;
    }
  }
  return terms;
}

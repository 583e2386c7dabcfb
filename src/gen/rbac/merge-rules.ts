import { compareBytes, uniqueSorted } from '../byte-order.ts';
import type { PolicyRule } from './policy-rule.ts';

/** One rule while merging: every list de-duplicated and sorted. */
export interface RuleParts {
  groups: string[];
  resources: string[];
  resourceNames: string[];
  urls: string[];
  verbs: string[];
}

type Field = keyof RuleParts;

/**
 * Merges the rules of one role the way controller-gen v0.23 does, so role.yaml is the same:
 * rules on the same objects pool their verbs; then rules that differ only in resources, then only
 * in groups, then only in URLs are folded into one; the result is sorted by groups, resources,
 * resource names and URLs. A `*` verb absorbs the others only at the end, after merging.
 */
export function mergeRules(rules: readonly RuleParts[]): PolicyRule[] {
  let merged = poolVerbs(rules.map(withCoreGroup));
  merged = foldBy(merged, 'resources');
  merged = foldBy(merged, 'groups');
  merged = foldBy(merged, 'urls');
  return merged
    .map((rule) => ({ key: targetKey(rule), rule }))
    .sort((a, b) => compareBytes(a.key, b.key))
    .map(({ rule }) => toPolicyRule(rule));
}

/** "core" is accepted for the core group, which the API spells as the empty string. */
function withCoreGroup(rule: RuleParts): RuleParts {
  return normalized({ ...rule, groups: rule.groups.map((g) => (g === 'core' ? '' : g)) });
}

function normalized(rule: RuleParts): RuleParts {
  return {
    groups: uniqueSorted(rule.groups),
    resources: uniqueSorted(rule.resources),
    resourceNames: uniqueSorted(rule.resourceNames),
    urls: uniqueSorted(rule.urls),
    verbs: uniqueSorted(rule.verbs),
  };
}

function poolVerbs(rules: readonly RuleParts[]): RuleParts[] {
  const byTarget = new Map<string, RuleParts>();
  for (const rule of rules) {
    const key = targetKey(rule);
    const seen = byTarget.get(key);
    byTarget.set(key, seen ? normalized({ ...seen, verbs: [...seen.verbs, ...rule.verbs] }) : rule);
  }
  return [...byTarget.values()];
}

/** Folds rules equal in every field but `field` into one rule holding the union of `field`. */
function foldBy(rules: readonly RuleParts[], field: Exclude<Field, 'verbs' | 'resourceNames'>): RuleParts[] {
  const groups = new Map<string, RuleParts>();
  for (const rule of rules) {
    const key = keyWithout(rule, field);
    const seen = groups.get(key);
    groups.set(key, seen ? normalized({ ...seen, [field]: [...seen[field], ...rule[field]] }) : rule);
  }
  // Folding can make two rules identical; the last one wins, as in controller-gen's map.
  const byTarget = new Map<string, RuleParts>();
  for (const rule of groups.values()) byTarget.set(targetKey(rule), rule);
  return [...byTarget.values()];
}

/** The objects a rule is about, which is also the order rules are written in. */
function targetKey(rule: RuleParts): string {
  return [rule.groups, rule.resources, rule.resourceNames, rule.urls].map((l) => l.join('&')).join(' + ');
}

function keyWithout(rule: RuleParts, field: Field): string {
  const fields: Field[] = ['groups', 'resources', 'resourceNames', 'urls', 'verbs'];
  return fields
    .filter((f) => f !== field)
    .map((f) => rule[f].join('&'))
    .join(' + ');
}

function toPolicyRule(rule: RuleParts): PolicyRule {
  const policy: PolicyRule = { verbs: rule.verbs.includes('*') ? ['*'] : rule.verbs };
  if (rule.groups.length > 0) policy.apiGroups = rule.groups;
  if (rule.resources.length > 0) policy.resources = rule.resources;
  if (rule.resourceNames.length > 0) policy.resourceNames = rule.resourceNames;
  if (rule.urls.length > 0) policy.nonResourceURLs = rule.urls;
  return policy;
}

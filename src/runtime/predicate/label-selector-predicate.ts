import type { V1LabelSelector } from '@kubernetes/client-node';
import type { KubeObject } from '../api/kube-object.ts';
import {
  labelRequirement,
  matchesLabels,
  type LabelOperator,
  type LabelSelector,
} from '../cache/label-selector.ts';
import { parseLabelSelector } from '../cache/label-selector-parser.ts';
import type { Predicate } from './predicate.ts';

/**
 * Lets through the events of objects whose labels match `selector` (for an update, the new
 * object's labels), as controller-runtime's LabelSelectorPredicate. Takes a metav1.LabelSelector
 * or its string form (`app=web,tier in (front,back)`); throws at once on a malformed one.
 *
 * @example
 * ```ts
 * labelSelectorPredicate({ matchLabels: { 'app.kubernetes.io/managed-by': 'webapp-operator' } });
 * ```
 */
export function labelSelectorPredicate(selector: V1LabelSelector | string): Predicate<KubeObject> {
  const requirements = typeof selector === 'string' ? parseLabelSelector(selector) : requirementsOf(selector);
  return (event) => matchesLabels(requirements, event.object.metadata?.labels);
}

/** The requirements of a metav1.LabelSelector, checked as the API server checks them; an empty selector matches everything. */
function requirementsOf(selector: V1LabelSelector): LabelSelector {
  const fromLabels = Object.entries(selector.matchLabels ?? {}).map(([key, value]) =>
    labelRequirement(key, 'in', [value]),
  );
  const fromExpressions = (selector.matchExpressions ?? []).map(({ key, operator, values = [] }) => {
    const op = EXPRESSION_OPERATORS.get(operator);
    if (op === undefined) throw new Error(`"${operator}" is not a valid label selector operator`);
    return labelRequirement(key, op, values);
  });
  return [...fromLabels, ...fromExpressions];
}

/**
 * The operators of a metav1.LabelSelector's expressions (it has no Gt or Lt). A Map: an operator
 * read from user input must not find an object's inherited properties (`toString`).
 */
const EXPRESSION_OPERATORS: ReadonlyMap<string, LabelOperator> = new Map([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

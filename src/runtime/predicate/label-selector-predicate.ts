import type { V1LabelSelector } from '@kubernetes/client-node';
import type { KubeObject } from '../api/kube-object.ts';
import {
  matchesLabels,
  parseLabelSelector,
  type LabelRequirement,
  type LabelSelector,
} from '../cache/label-selector.ts';
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

/** The requirements of a metav1.LabelSelector; an empty selector matches everything. */
function requirementsOf(selector: V1LabelSelector): LabelSelector {
  const fromLabels = Object.entries(selector.matchLabels ?? {}).map(([key, value]): LabelRequirement => ({
    key,
    op: 'in',
    values: [value],
  }));
  const fromExpressions = (selector.matchExpressions ?? []).map(
    ({ key, operator, values = [] }): LabelRequirement => {
      switch (operator) {
        case 'In':
          return { key, op: 'in', values };
        case 'NotIn':
          return { key, op: 'notin', values };
        case 'Exists':
          return { key, op: 'exists', values: [] };
        case 'DoesNotExist':
          return { key, op: '!', values: [] };
        default:
          throw new Error(`"${operator}" is not a valid label selector operator`);
      }
    },
  );
  return [...fromLabels, ...fromExpressions];
}

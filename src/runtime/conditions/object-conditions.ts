import type { KubeObject } from '../api/kube-object.ts';
import type { Condition } from '../api/types.ts';
import { systemClock, type Clock } from '../clock/clock.ts';
import { setStatusCondition, type ConditionInput } from './conditions.ts';

/** An object whose status carries metav1.Conditions (`Condition`: their times are strings). */
export interface ObjectWithConditions extends KubeObject {
  status?: { conditions?: Condition[] };
}

/**
 * Sets a condition in `object.status.conditions` (creating the list when missing), stamping it
 * with the object's `metadata.generation` unless the input says otherwise, so readers can tell a
 * condition computed from an older spec. Returns whether anything changed.
 *
 * @example
 * ```ts
 * setCondition(app, { type: 'Available', status: 'True', reason: 'Reconciled' });
 * await client.status().update(app);
 * ```
 */
export function setCondition(
  object: ObjectWithConditions,
  condition: ConditionInput,
  clock: Clock = systemClock,
): boolean {
  const status = (object.status ??= {});
  const conditions = (status.conditions ??= []);
  const generation = object.metadata?.generation;
  const stamped =
    condition.observedGeneration === undefined && generation !== undefined
      ? { ...condition, observedGeneration: generation }
      : condition;
  return setStatusCondition(conditions, stamped, clock);
}

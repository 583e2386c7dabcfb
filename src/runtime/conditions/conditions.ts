import type { V1Condition } from '@kubernetes/client-node';
import { systemClock, type Clock } from '../clock/clock.ts';

/** A condition's status, as metav1.ConditionStatus. */
export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** What a controller states about one condition type; the time of the transition is filled in. */
export interface ConditionInput {
  /** CamelCase type, e.g. `Available`. */
  readonly type: string;
  readonly status: ConditionStatus;
  /** CamelCase reason for the last transition, e.g. `MinimumReplicasAvailable`. */
  readonly reason: string;
  /** Default: ''. */
  readonly message?: string;
  /** The `.metadata.generation` the condition was computed from. Default: none (setCondition: the object's). */
  readonly observedGeneration?: number;
  /** Default: now, when the status changes. */
  readonly lastTransitionTime?: Date;
}

/**
 * Sets `condition` in `conditions` with metav1.Condition semantics, as apimachinery's
 * meta.SetStatusCondition: `lastTransitionTime` changes only when the status does; reason, message
 * and observedGeneration are always updated. Returns whether anything changed.
 *
 * @example
 * ```ts
 * setStatusCondition(app.status.conditions, { type: 'Available', status: 'True', reason: 'Reconciled' });
 * ```
 */
export function setStatusCondition(
  conditions: V1Condition[],
  condition: ConditionInput,
  clock: Clock = systemClock,
): boolean {
  const existing = findStatusCondition(conditions, condition.type);
  const message = condition.message ?? '';
  if (existing === undefined) {
    const created: V1Condition = {
      type: condition.type,
      status: condition.status,
      reason: condition.reason,
      message,
      lastTransitionTime: condition.lastTransitionTime ?? transitionTime(clock),
    };
    if (condition.observedGeneration !== undefined) created.observedGeneration = condition.observedGeneration;
    conditions.push(created);
    return true;
  }
  let changed = false;
  if (existing.status !== condition.status) {
    existing.status = condition.status;
    existing.lastTransitionTime = condition.lastTransitionTime ?? transitionTime(clock);
    changed = true;
  }
  if (existing.reason !== condition.reason) {
    existing.reason = condition.reason;
    changed = true;
  }
  if (existing.message !== message) {
    existing.message = message;
    changed = true;
  }
  if (existing.observedGeneration !== condition.observedGeneration) {
    if (condition.observedGeneration === undefined) delete existing.observedGeneration;
    else existing.observedGeneration = condition.observedGeneration;
    changed = true;
  }
  return changed;
}

/** Removes the condition of `type`; returns whether there was one. */
export function removeStatusCondition(conditions: V1Condition[], type: string): boolean {
  const index = conditions.findIndex((c) => c.type === type);
  if (index < 0) return false;
  conditions.splice(index, 1);
  return true;
}

/** The condition of `type`, or undefined. */
export function findStatusCondition(
  conditions: readonly V1Condition[] | undefined,
  type: string,
): V1Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** True when the condition of `type` is present with status `True`. */
export function isStatusConditionTrue(conditions: readonly V1Condition[] | undefined, type: string): boolean {
  return findStatusCondition(conditions, type)?.status === 'True';
}

/** True when the condition of `type` is present with status `False`. */
export function isStatusConditionFalse(
  conditions: readonly V1Condition[] | undefined,
  type: string,
): boolean {
  return findStatusCondition(conditions, type)?.status === 'False';
}

/** metav1.Time has second precision: a time kept to the second reads back equal from the API server. */
function transitionTime(clock: Clock): Date {
  return new Date(Math.floor(clock.now() / 1000) * 1000);
}

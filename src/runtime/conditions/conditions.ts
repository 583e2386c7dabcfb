import { formatTime } from '../api/format-time.ts';
import type { Condition } from '../api/types.ts';
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
  /**
   * Default: now, when the status changes. A Date is stored as the RFC 3339 text metav1.Time
   * writes (to the second), a string as it is: conditions hold what the API server returns.
   */
  readonly lastTransitionTime?: Date | string;
}

/**
 * Sets `condition` in `conditions` with metav1.Condition semantics, as apimachinery's
 * meta.SetStatusCondition: `lastTransitionTime` changes only when the status does; reason, message
 * and observedGeneration are always updated. Returns whether anything changed. Times are written
 * as strings, as read ones are, so that a condition set here compares equal to itself read back.
 *
 * @example
 * ```ts
 * setStatusCondition(app.status.conditions, { type: 'Available', status: 'True', reason: 'Reconciled' });
 * ```
 */
export function setStatusCondition(
  conditions: Condition[],
  condition: ConditionInput,
  clock: Clock = systemClock,
): boolean {
  const existing = findStatusCondition(conditions, condition.type);
  const message = condition.message ?? '';
  if (existing === undefined) {
    const created: Condition = {
      type: condition.type,
      status: condition.status,
      reason: condition.reason,
      message,
      lastTransitionTime: transitionTime(condition, clock),
    };
    if (condition.observedGeneration !== undefined) created.observedGeneration = condition.observedGeneration;
    conditions.push(created);
    return true;
  }
  let changed = false;
  if (existing.status !== condition.status) {
    existing.status = condition.status;
    existing.lastTransitionTime = transitionTime(condition, clock);
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
export function removeStatusCondition(conditions: Condition[], type: string): boolean {
  const index = conditions.findIndex((c) => c.type === type);
  if (index < 0) return false;
  conditions.splice(index, 1);
  return true;
}

/** The condition of `type`, or undefined. */
export function findStatusCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** True when the condition of `type` is present with status `True`. */
export function isStatusConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findStatusCondition(conditions, type)?.status === 'True';
}

/** True when the condition of `type` is present with status `False`. */
export function isStatusConditionFalse(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findStatusCondition(conditions, type)?.status === 'False';
}

/**
 * The input's time, or now (also for an empty one, the zero time meta.SetStatusCondition replaces);
 * metav1.Time has second precision, so a Date is kept to the second.
 */
function transitionTime(condition: ConditionInput, clock: Clock): string {
  const at = condition.lastTransitionTime || new Date(clock.now());
  return typeof at === 'string' ? at : formatTime(at);
}

import type { Time } from './types.ts';

/**
 * `date` as metav1.Time writes it: RFC 3339 in UTC, to the second (`2026-01-02T15:04:05Z`).
 * `Date.toJSON` adds milliseconds, which Go clients parse but kubectl and controller-runtime never
 * write, and which the API server drops when it stores a metav1.Time: a time kept to the second
 * reads back equal. For a `Time` field of your own types, and what `setCondition` stamps.
 *
 * @example
 * ```ts
 * cronJob.status = { ...cronJob.status, lastScheduleTime: formatTime(new Date()) };
 * ```
 */
export function formatTime(date: Date): Time {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

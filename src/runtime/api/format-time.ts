import type { Json } from './json.ts';
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

/**
 * A JSON.stringify replacer writing each `Date` as metav1.Time does ({@link formatTime}); the
 * runtime's MicroTimeDate, a Date subclass, keeps its own microsecond format (its toJSON).
 */
export function kubernetesTime(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  if (raw instanceof Date && raw.constructor === Date && !Number.isNaN(raw.getTime())) {
    return formatTime(raw);
  }
  return value;
}

/**
 * `value` as the API server reads it: a copy with every `Date` written as {@link kubernetesTime}
 * writes it, so that it compares equal to the same object read back.
 *
 * @example
 * ```ts
 * isDeepStrictEqual(read, asWritten(desired)); // true when only Dates stand for the same times
 * ```
 */
export function asWritten<T>(value: T): Json<T> {
  return JSON.parse(JSON.stringify(value, kubernetesTime)) as Json<T>;
}

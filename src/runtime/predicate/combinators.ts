import type { Predicate } from './predicate.ts';

/**
 * Lets an event through when every predicate does (none given: all events pass).
 *
 * @example
 * ```ts
 * and(generationChanged, labelSelectorPredicate('app=web'));
 * ```
 */
export function and<T>(...predicates: readonly Predicate<T>[]): Predicate<T> {
  return (event) => predicates.every((p) => p(event));
}

/** Lets an event through when any predicate does (none given: no event passes). */
export function or<T>(...predicates: readonly Predicate<T>[]): Predicate<T> {
  return (event) => predicates.some((p) => p(event));
}

/** Lets through exactly the events `predicate` stops. */
export function not<T>(predicate: Predicate<T>): Predicate<T> {
  return (event) => !predicate(event);
}

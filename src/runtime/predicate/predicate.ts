import type { ObjectEvent } from '../event/object-event.ts';

/**
 * Filters the events that reach a controller's handlers, as controller-runtime's predicate.Predicate:
 * true lets the event through.
 */
export type Predicate<T> = (event: ObjectEvent<T>) => boolean;

import type { JsonInput } from '../api/json.ts';

/**
 * What createOrUpdate / createOrPatch did, as controller-runtime's OperationResult: nothing,
 * created the object, updated it, updated it and its status, or only its status.
 */
export type OperationResult = 'unchanged' | 'created' | 'updated' | 'updatedStatus' | 'updatedStatusOnly';

/** The object as the API server answered (or as read, when unchanged) and what was done. */
export interface MutationOutcome<T> {
  readonly object: T;
  readonly operation: OperationResult;
}

/**
 * Changes the desired state into `obj`, in place. Must not change its name or namespace. `obj` is
 * the object as read (timestamps are strings) or a new one, typed `JsonInput<T>` so that a
 * client-node model built in code can be assigned into it (`d.spec = deploymentSpecFor(app)`, a
 * V1DeploymentSpec with Dates): a timestamp read from it is `Date | string`, which `new Date(t)`
 * takes either way.
 */
export type MutateFn<T> = (obj: JsonInput<T>) => void | Promise<void>;

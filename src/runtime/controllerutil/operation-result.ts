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

/** Changes the desired state into `obj`, in place. Must not change its name or namespace. */
export type MutateFn<T> = (obj: T) => void | Promise<void>;

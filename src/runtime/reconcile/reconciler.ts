import type { Request } from './request.ts';
import type { Result } from './result.ts';

/**
 * The one method a controller's author writes. Throwing requeues with backoff; throwing a
 * TerminalError does not. `signal` is aborted when the manager shuts down.
 */
export interface Reconciler {
  reconcile(req: Request, signal: AbortSignal): Promise<Result>;
}

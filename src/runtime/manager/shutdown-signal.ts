import type { Logger } from '../log/logger.ts';

/**
 * An AbortSignal aborted by the first SIGTERM or SIGINT; a second one exits at once with code 1,
 * as controller-runtime's signal handler does, for an operator stuck in shutdown.
 */
export function shutdownSignal(logger: Logger): AbortSignal {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) {
      logger.error('second signal: exiting at once', { signal });
      process.exit(1);
    }
    logger.info('shutting down: finishing in-flight reconciles', { signal });
    controller.abort(new Error(`received ${signal}`));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return controller.signal;
}

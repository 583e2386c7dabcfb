/**
 * An error the user can cause and fix. The CLI prints its message alone (no stack trace) and exits
 * with `exitCode`: 1 for a failure, 2 for a usage error.
 */
export class TsoperatorError extends Error {
  readonly exitCode: 1 | 2;

  constructor(message: string, options: { exitCode?: 1 | 2; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TsoperatorError';
    this.exitCode = options.exitCode ?? 1;
  }
}

/** A command line the user got wrong: exits 2, as commander's own usage errors do. */
export class UsageError extends TsoperatorError {
  constructor(message: string) {
    super(message, { exitCode: 2 });
    this.name = 'UsageError';
  }
}

/** True for errors that carry a message meant for the user. */
export function isTsoperatorError(err: unknown): err is TsoperatorError {
  return err instanceof TsoperatorError;
}

/** 1 a failure, 2 a usage error, 130 and 143 a command SIGINT or SIGTERM interrupted. */
export type ExitCode = 1 | 2 | 130 | 143;

/**
 * An error the user can cause and fix. The CLI prints its message alone (no stack trace) and exits
 * with `exitCode`: 1 for a failure, 2 for a usage error.
 */
export class TsoperatorError extends Error {
  readonly exitCode: ExitCode;

  constructor(message: string, options: { exitCode?: ExitCode; cause?: unknown } = {}) {
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

/**
 * A command SIGINT (Ctrl-C) or SIGTERM stopped before it was done: exits 130 or 143, 128 plus the
 * signal's number, as a shell reports a process the signal ended.
 */
export class InterruptedError extends TsoperatorError {
  readonly signal: 'SIGINT' | 'SIGTERM';

  /** `what` completes "<signal> interrupted ...", e.g. `the start of the control plane`. */
  constructor(signal: 'SIGINT' | 'SIGTERM', what: string) {
    super(`${signal} interrupted ${what}.`, { exitCode: signal === 'SIGINT' ? 130 : 143 });
    this.name = 'InterruptedError';
    this.signal = signal;
  }
}

/** True for errors that carry a message meant for the user. */
export function isTsoperatorError(err: unknown): err is TsoperatorError {
  return err instanceof TsoperatorError;
}

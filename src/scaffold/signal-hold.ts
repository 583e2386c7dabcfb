/** The signals a terminal (Ctrl-C, a closed window) or a supervisor ends a command with. */
const HELD_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export type HeldSignal = (typeof HELD_SIGNALS)[number];

/** Signals kept from ending the process while a folder is half written. */
export interface SignalHold {
  /** The first signal received since the hold began, or undefined. */
  received(): HeldSignal | undefined;
  /** Stops holding; with `redeliver`, a signal received is sent again, to end the process now. */
  release(redeliver: boolean): void;
}

/**
 * Holds the ending signals until `release`: received, they are only noted, so that the caller can
 * finish or undo what it writes instead of dying between two renames.
 *
 * @example
 * ```ts
 * const hold = holdSignals();
 * if (hold.received() !== undefined) undo();
 * hold.release(true);
 * ```
 */
export function holdSignals(): SignalHold {
  let first: HeldSignal | undefined;
  const listeners = HELD_SIGNALS.map((signal) => {
    const listener = (): void => {
      first ??= signal;
    };
    process.on(signal, listener);
    return { signal, listener };
  });
  return {
    received: () => first,
    release: (redeliver) => {
      for (const { signal, listener } of listeners) process.off(signal, listener);
      if (redeliver && first !== undefined) process.kill(process.pid, first);
    },
  };
}

import { systemClock, type Clock } from '../clock/clock.ts';

/** How a {@link Backoff} grows. */
export interface BackoffOptions {
  /** First pause. Default: 800 ms (client-go's reflector). */
  readonly initialMs?: number;
  /** Longest pause. Default: 30 s. */
  readonly maxMs?: number;
  /** Each pause doubles, then up to this fraction is added at random. Default: 1 (client-go's jitter). */
  readonly jitter?: number;
  /** Default: Math.random. */
  readonly random?: () => number;
  /** What pauses sleep on. Default: systemClock. */
  readonly clock?: Clock;
}

/** Exponential backoff with jitter; `reset` after a healthy stretch starts it over. */
export class Backoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #jitter: number;
  readonly #random: () => number;
  readonly #clock: Clock;
  #nextMs: number;

  constructor(options: BackoffOptions = {}) {
    this.#initialMs = options.initialMs ?? 800;
    this.#maxMs = options.maxMs ?? 30_000;
    this.#jitter = options.jitter ?? 1;
    this.#random = options.random ?? Math.random;
    this.#clock = options.clock ?? systemClock;
    this.#nextMs = this.#initialMs;
  }

  /** The next pause, and grows the one after. */
  next(): number {
    const base = this.#nextMs;
    this.#nextMs = Math.min(this.#maxMs, base * 2);
    return Math.min(this.#maxMs, base * (1 + this.#jitter * this.#random()));
  }

  /** Sleeps for the next pause; resolves early when `signal` aborts. */
  wait(signal: AbortSignal): Promise<void> {
    return this.#clock.sleep(this.next(), signal);
  }

  reset(): void {
    this.#nextMs = this.#initialMs;
  }
}

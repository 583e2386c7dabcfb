import type { Clock } from '../clock/clock.ts';

/**
 * A token bucket that drops instead of waiting: `tryTake` takes a token when one is left and says
 * whether it did, as client-go's passive rate limiter (TryAccept). Refills are measured on the
 * monotonic clock, so a wall-clock step neither empties nor fills the bucket.
 */
export class TokenBucket {
  readonly #burst: number;
  readonly #msPerToken: number;
  readonly #clock: Clock;
  #tokens: number;
  #updatedAt: number;

  /** Starts full: `burst` tokens, refilled at one per `msPerToken`. */
  constructor(burst: number, msPerToken: number, clock: Clock) {
    this.#burst = burst;
    this.#msPerToken = msPerToken;
    this.#clock = clock;
    this.#tokens = burst;
    this.#updatedAt = clock.monotonic();
  }

  tryTake(): boolean {
    const now = this.#clock.monotonic();
    this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#updatedAt) / this.#msPerToken);
    this.#updatedAt = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

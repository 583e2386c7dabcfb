import { type Clock, systemClock } from '../clock/clock.ts';

/** How {@link transportFor} bounds requests. */
export interface TransportOptions {
  /**
   * How long one attempt of a request may take, from sending it to the last byte of the answer;
   * past it the request fails with a RequestTimeoutError. Watches are not bounded by it: each has
   * its own deadline, set by the reflector. Default: 30 000 ms.
   *
   * client-go sets none; without one, a request sent on a kept-alive connection whose peer died
   * without a reset (a node lost, a NAT entry dropped) waits for ever. A healthy API server answers
   * in milliseconds and ends requests itself after 60 s (its --request-timeout); 30 s is far past
   * any healthy answer, and gives up on a dead connection while the caller's backoff still helps.
   */
  readonly requestTimeoutMs?: number;
  /** Times each attempt. Default: the system clock. */
  readonly clock?: Clock;
}

/** TransportOptions with every default applied. */
export type ResolvedTransportOptions = Required<TransportOptions>;

/** The one place the defaults of {@link TransportOptions} are applied. */
export function resolveTransportOptions(options: TransportOptions = {}): ResolvedTransportOptions {
  return {
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    clock: options.clock ?? systemClock,
  };
}

import type { Readable } from 'node:stream';
import type { RestRequest, Transport } from '../../src/runtime/client/transport.ts';

/** One held request: what it was, and the means to let its answer through. */
export interface HeldAnswer {
  readonly request: RestRequest;
  /** Resolves once the API server has answered it (the answer is then held here). */
  readonly answered: Promise<void>;
  /** Lets the answer (or the failure) through to the caller. */
  release(): void;
}

/**
 * A Transport that holds back the answers of chosen requests, as a slow network or an API server
 * slow to answer one request does: a request matching a `hold` goes to the real API server at
 * once, but its caller sees the answer only after `release()`. Everything else passes through.
 */
export class HeldAnswerTransport implements Transport {
  readonly #inner: Transport;
  readonly #rules: { readonly matches: (req: RestRequest) => boolean; count: number }[] = [];
  readonly held: HeldAnswer[] = [];
  #waiters: (() => void)[] = [];

  constructor(inner: Transport) {
    this.#inner = inner;
  }

  /** Holds the answers of the next `count` requests that `matches` picks. */
  hold(matches: (req: RestRequest) => boolean, count = 1): void {
    this.#rules.push({ matches, count });
  }

  /** Resolves once `n` requests have been held. */
  async heldCount(n: number): Promise<readonly HeldAnswer[]> {
    while (this.held.length < n) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    return this.held;
  }

  /** Lets every held answer through, and holds no more. */
  releaseAll(): void {
    this.#rules.length = 0;
    for (const held of this.held) held.release();
  }

  async request<T>(req: RestRequest): Promise<T> {
    const rule = this.#rules.find((r) => r.count > 0 && r.matches(req));
    if (!rule) return this.#inner.request<T>(req);
    rule.count--;
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const outcome = this.#inner.request<T>(req).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    this.held.push({ request: req, answered: outcome.then(() => undefined), release });
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
    const [result] = await Promise.all([outcome, released]);
    if ('error' in result) throw result.error;
    return result.value;
  }

  stream(path: string, signal: AbortSignal, accept?: string): Promise<Readable> {
    return this.#inner.stream(path, signal, accept);
  }
}

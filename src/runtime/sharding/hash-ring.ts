import { xxhash64 } from './xxhash64.ts';

/** Virtual tokens per shard: enough for an even spread over a few shards (the external project's). */
export const TOKENS_PER_SHARD = 100;

/**
 * A consistent-hash ring: each shard puts `tokensPerShard` tokens (`xxhash64(shard + i)`) on a
 * 64-bit circle, and a key belongs to the shard of the first token at or after the key's hash. A
 * shard joining or leaving moves only the keys next to its own tokens, about 1/N of them.
 * Built anew on every change of the shards, as the external project's ring, whose tokens and
 * lookups this one reproduces.
 */
export class HashRing {
  readonly shards: readonly string[];
  readonly #tokens: BigUint64Array;
  readonly #owners: readonly string[];

  constructor(shards: readonly string[], tokensPerShard: number = TOKENS_PER_SHARD) {
    this.shards = [...shards].sort();
    const byToken = new Map<bigint, string>();
    for (const shard of this.shards) {
      // A token two shards share goes to the later one, as in the external project's map.
      for (let i = 0; i < tokensPerShard; i++) byToken.set(xxhash64(`${shard}${i}`), shard);
    }
    this.#tokens = BigUint64Array.from(byToken.keys()).sort();
    this.#owners = Array.from(this.#tokens, (token) => byToken.get(token) ?? '');
  }

  /** The shard `key` belongs to; undefined when the ring has no shard. */
  shardFor(key: string): string | undefined {
    if (this.#tokens.length === 0) return undefined;
    const index = firstAtOrAfter(this.#tokens, xxhash64(key));
    return this.#owners[index === this.#tokens.length ? 0 : index];
  }

  /** Whether both rings hold the same shards. */
  sameShards(other: HashRing): boolean {
    return this.hasShards(other.shards);
  }

  /** Whether the ring holds exactly `sorted` (sorted names): telling it costs no ring of them. */
  hasShards(sorted: readonly string[]): boolean {
    return this.shards.length === sorted.length && this.shards.every((s, i) => s === sorted[i]);
  }
}

/** The index of the first token ≥ `hash` (the array's length when none is). */
function firstAtOrAfter(tokens: BigUint64Array, hash: bigint): number {
  let low = 0;
  let high = tokens.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((tokens[mid] ?? 0n) < hash) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** XXH64's primes. */
const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;
const MASK = 0xffffffffffffffffn;

/**
 * The 64-bit xxHash (XXH64, seed 0) of a string's UTF-8 bytes: the hash the external
 * kubernetes-controller-sharding project puts its ring tokens and object keys on, so that a shard
 * of this runtime and that project's sharder agree on where an object goes.
 */
export function xxhash64(text: string): bigint {
  const bytes = Buffer.from(text, 'utf8');
  const length = bytes.length;
  let offset = 0;
  let h: bigint;
  if (length >= 32) {
    let v1 = (P1 + P2) & MASK;
    let v2 = P2;
    let v3 = 0n;
    let v4 = (MASK + 1n - P1) & MASK;
    while (offset + 32 <= length) {
      v1 = round(v1, bytes.readBigUInt64LE(offset));
      v2 = round(v2, bytes.readBigUInt64LE(offset + 8));
      v3 = round(v3, bytes.readBigUInt64LE(offset + 16));
      v4 = round(v4, bytes.readBigUInt64LE(offset + 24));
      offset += 32;
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & MASK;
    for (const v of [v1, v2, v3, v4]) h = mergeRound(h, v);
  } else {
    h = P5;
  }
  h = (h + BigInt(length)) & MASK;
  while (offset + 8 <= length) {
    h ^= round(0n, bytes.readBigUInt64LE(offset));
    h = (rotl(h, 27n) * P1 + P4) & MASK;
    offset += 8;
  }
  if (offset + 4 <= length) {
    h ^= (BigInt(bytes.readUInt32LE(offset)) * P1) & MASK;
    h = (rotl(h, 23n) * P2 + P3) & MASK;
    offset += 4;
  }
  while (offset < length) {
    h ^= (BigInt(bytes[offset] ?? 0) * P5) & MASK;
    h = (rotl(h, 11n) * P1) & MASK;
    offset += 1;
  }
  return avalanche(h);
}

function round(acc: bigint, input: bigint): bigint {
  return (rotl((acc + input * P2) & MASK, 31n) * P1) & MASK;
}

function mergeRound(acc: bigint, value: bigint): bigint {
  return ((acc ^ round(0n, value)) * P1 + P4) & MASK;
}

function rotl(value: bigint, bits: bigint): bigint {
  return ((value << bits) | (value >> (64n - bits))) & MASK;
}

function avalanche(value: bigint): bigint {
  let h = value;
  h ^= h >> 33n;
  h = (h * P2) & MASK;
  h ^= h >> 29n;
  h = (h * P3) & MASK;
  h ^= h >> 32n;
  return h;
}

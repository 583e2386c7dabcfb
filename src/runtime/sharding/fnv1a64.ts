const OFFSET_BASIS = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

/**
 * The 64-bit FNV-1a hash of a string's UTF-8 bytes: what kube-apiserver's shard selector
 * (KEP-5866) hashes `metadata.uid` or `metadata.namespace` with, so that this side selects the
 * same objects as a server that applies the selector.
 */
export function fnv1a64(text: string): bigint {
  let hash = OFFSET_BASIS;
  for (const byte of Buffer.from(text, 'utf8')) hash = ((hash ^ BigInt(byte)) * PRIME) & MASK;
  return hash;
}

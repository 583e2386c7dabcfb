/** A half-open range [start, end) of the 64-bit hash space; `end` may be 2^64. */
export interface HashRange {
  readonly start: bigint;
  readonly end: bigint;
}

/** Sorted, disjoint, non-empty ranges. */
export type HashRanges = readonly HashRange[];

/** 2^64: the end of the hash space. */
export const HASH_SPACE = 1n << 64n;

/** The `index`-th of `count` equal ranges of the hash space. */
export function equalRange(index: number, count: number): HashRanges {
  const start = (HASH_SPACE * BigInt(index)) / BigInt(count);
  const end = (HASH_SPACE * BigInt(index + 1)) / BigInt(count);
  return [{ start, end }];
}

/** Whether `hash` falls in one of `ranges`. */
export function inRanges(ranges: HashRanges, hash: bigint): boolean {
  return ranges.some((r) => r.start <= hash && hash < r.end);
}

/** The parts of `a` outside `b`. */
export function subtractRanges(a: HashRanges, b: HashRanges): HashRanges {
  let rest: HashRange[] = [...a];
  for (const cut of b) {
    rest = rest.flatMap((r) => {
      if (cut.end <= r.start || r.end <= cut.start) return [r];
      const parts: HashRange[] = [];
      if (r.start < cut.start) parts.push({ start: r.start, end: cut.start });
      if (cut.end < r.end) parts.push({ start: cut.end, end: r.end });
      return parts;
    });
  }
  return rest;
}

/** The parts of `a` inside `b`. */
export function intersectRanges(a: HashRanges, b: HashRanges): HashRanges {
  return subtractRanges(a, subtractRanges(a, b));
}

/** `a` and `b` together, merged and sorted. */
export function unionRanges(a: HashRanges, b: HashRanges): HashRanges {
  const sorted = [...a, ...b].sort((x, y) => (x.start < y.start ? -1 : x.start > y.start ? 1 : 0));
  const merged: HashRange[] = [];
  for (const r of sorted) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end)
      merged[merged.length - 1] = { start: last.start, end: r.end > last.end ? r.end : last.end };
    else merged.push(r);
  }
  return merged;
}

/** Whether `a` and `b` cover the same hashes. */
export function sameRanges(a: HashRanges, b: HashRanges): boolean {
  return subtractRanges(a, b).length === 0 && subtractRanges(b, a).length === 0;
}

/** `0x…-0x…,0x…-0x…`, each bound as kube-apiserver reads it (16 hex digits, or 2^64 itself). */
export function formatRanges(ranges: HashRanges): string {
  return ranges.map((r) => `${hexBound(r.start)}-${hexBound(r.end)}`).join(',');
}

/** The inverse of `formatRanges`; ranges it cannot read are left out. */
export function parseRanges(text: string | undefined): HashRanges {
  if (!text) return [];
  const ranges: HashRange[] = [];
  for (const part of text.split(',')) {
    const match = /^(0x[0-9a-f]+)-(0x[0-9a-f]+)$/.exec(part.trim());
    if (!match) continue;
    const start = BigInt(match[1] ?? '0');
    const end = BigInt(match[2] ?? '0');
    if (start < end && end <= HASH_SPACE) ranges.push({ start, end });
  }
  return unionRanges(ranges, []);
}

/**
 * The `shardSelector` of `ranges` over `field` (`object.metadata.uid` or
 * `object.metadata.namespace`), one `shardRange` per range joined by `||`. Empty ranges select
 * only the hash 0, the smallest range the server accepts, and `inRanges` then lets nothing in.
 */
export function shardSelectorOf(ranges: HashRanges, field: string): string {
  const selected = ranges.length > 0 ? ranges : [{ start: 0n, end: 1n }];
  return selected
    .map((r) => `shardRange(${field}, '${hexBound(r.start)}', '${hexBound(r.end)}')`)
    .join(' || ');
}

function hexBound(value: bigint): string {
  return value === HASH_SPACE ? '0x10000000000000000' : `0x${value.toString(16).padStart(16, '0')}`;
}

import type { Kind } from '../client/kind.ts';

/** A kind a ring shards, and the kinds its objects control (they follow their owner's shard). */
export interface RingKind {
  readonly kind: Kind;
  readonly controlled: readonly Kind[];
}

/** The ring kind whose objects a controller reference of `apiVersion`/`kind` points at. */
export function ringKindOfOwner(
  kinds: readonly RingKind[],
  apiVersion: string,
  kind: string,
): RingKind | undefined {
  return kinds.find((k) => k.kind.apiVersion === apiVersion && k.kind.kind === kind);
}

/** What a lock holds about its leader, as client-go's `resourcelock.LeaderElectionRecord`. */
export interface LeaderElectionRecord {
  /** The identity of the leader; empty when the lease was released. */
  readonly holderIdentity: string;
  /** How long, after the last change a candidate observed, the lease counts as held. */
  readonly leaseDurationSeconds: number;
  /** When the current holder acquired the lease (ms since the epoch). */
  readonly acquireTime: number;
  /** When the current holder last renewed the lease (ms since the epoch). */
  readonly renewTime: number;
  /** How many times the lease changed hands. */
  readonly leaderTransitions: number;
}

/** A record as read from or written to the API server, with the version a write must match. */
export interface VersionedRecord {
  readonly record: LeaderElectionRecord;
  readonly resourceVersion: string;
}

/** True when two records say the same thing: a candidate restarts its expiry timer on any change. */
export function sameRecord(a: LeaderElectionRecord, b: LeaderElectionRecord): boolean {
  return (
    a.holderIdentity === b.holderIdentity &&
    a.leaseDurationSeconds === b.leaseDurationSeconds &&
    a.acquireTime === b.acquireTime &&
    a.renewTime === b.renewTime &&
    a.leaderTransitions === b.leaderTransitions
  );
}

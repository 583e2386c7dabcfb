/**
 * The lease was lost while leading: work must stop at once, and the process exit non-zero so it
 * restarts as a follower. It is also the reason of the leading signal when that happens.
 */
export class LeaderElectionLostError extends Error {
  constructor(lease: string) {
    super(`leader election lost: lease ${lease}`);
    this.name = 'LeaderElectionLostError';
  }
}

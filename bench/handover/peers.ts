import { join } from 'node:path';

/** Whether a standby fills its caches before it leads (warm) or only once it leads (cold). */
export type Standby = 'cold' | 'warm';

/** The lease timings both peers run with, in milliseconds. */
export interface LeaseTimings {
  readonly leaseDuration: number;
  readonly renewDeadline: number;
  readonly retryPeriod: number;
}

/** What one replica of a pair is started with. */
export interface ReplicaSpec {
  readonly namespace: string;
  readonly lease: string;
  readonly objects: number;
  readonly standby: Standby;
  readonly timings: LeaseTimings;
}

/** One side of the benchmark: how to start a replica of it. */
export interface Peer {
  readonly name: string;
  readonly command: string;
  readonly args: (spec: ReplicaSpec) => readonly string[];
}

/**
 * controller-runtime (EnableWarmup for warm, LeaderElectionReleaseOnCancel on) and our Manager
 * (`warmup`, whose elector releases on cancel by default), with the same lease timings.
 */
export function peers(here: string, goBinary: string): Peer[] {
  return [
    {
      name: 'controller-runtime',
      command: goBinary,
      args: (s) => [
        ...common(s),
        `--warmup=${s.standby === 'warm'}`,
        `--objects=${s.objects}`,
        `--lease-duration=${s.timings.leaseDuration}ms`,
        `--renew-deadline=${s.timings.renewDeadline}ms`,
        `--retry-period=${s.timings.retryPeriod}ms`,
      ],
    },
    {
      name: 'tsoperator',
      command: process.execPath,
      args: (s) => [
        ...process.execArgv,
        join(here, 'ts-replica.ts'),
        ...common(s),
        ...(s.standby === 'warm' ? ['--warmup'] : []),
        `--lease-duration=${s.timings.leaseDuration}`,
        `--renew-deadline=${s.timings.renewDeadline}`,
        `--retry-period=${s.timings.retryPeriod}`,
      ],
    },
  ];
}

function common(s: ReplicaSpec): string[] {
  return [`--namespace=${s.namespace}`, `--lease=${s.lease}`];
}

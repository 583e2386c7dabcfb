// What the shard processes of the "widgets" ring share (shard.ts, owner-shard.ts,
// draining-leader.ts): their manager, the lines they report on stdout, and how they run.
import type { Reconciler } from '../../../../src/runtime/reconcile/reconciler.ts';
import type { Result } from '../../../../src/runtime/reconcile/result.ts';
import { createLogger } from '../../../../src/runtime/log/logger.ts';
import { Manager } from '../../../../src/runtime/manager/manager.ts';
import type { ManagerOptions } from '../../../../src/runtime/manager/manager-options.ts';
import { sharedNow } from '../shards.ts';

/** This process's shard name (SHARD). */
export const shard = process.env['SHARD'] ?? 'shard';
/** Where its Widgets and the ring's Leases are (NAMESPACE). */
export const namespace = process.env['NAMESPACE'] ?? 'default';

/**
 * The manager of shard SHARD of ring "widgets" in NAMESPACE: leader election there, lease timings
 * from LEASE_MS, RENEW_MS and RETRY_MS (8 s, 6 s, 1 s), warnings and errors as JSON on stderr
 * (what a test reads of a shard's complaints), metrics on a free port; and `options`.
 */
export function ringShardManager(options: ManagerOptions = {}): Promise<Manager> {
  return Manager.create({
    namespace,
    metricsBindAddress: '127.0.0.1:0',
    metricsSecure: false,
    healthProbeBindAddress: '0',
    leaderElection: true,
    leaderElectionId: 'widgets-sharder',
    leaderElectionNamespace: namespace,
    leaseDuration: Number(process.env['LEASE_MS'] ?? '8000'),
    renewDeadline: Number(process.env['RENEW_MS'] ?? '6000'),
    retryPeriod: Number(process.env['RETRY_MS'] ?? '1000'),
    sharding: { ring: 'widgets', shardName: shard },
    logger: createLogger({ level: 'warn' }),
    ...options,
  });
}

/**
 * `reconcile`, reporting on stdout the begin and end of each of its runs (`B` and `E` lines with
 * the time, {@link sharedNow}): a failed one ends too, for left open it would overlap every later
 * reconcile of the Widget.
 */
export function reported(reconcile: Reconciler['reconcile']): Reconciler {
  return {
    reconcile: async (req, signal): Promise<Result> => {
      process.stdout.write(`B ${shard} ${req.name} ${sharedNow()}\n`);
      try {
        return await reconcile(req, signal);
      } finally {
        process.stdout.write(`E ${shard} ${req.name} ${sharedNow()}\n`);
      }
    },
  };
}

/** Reports a failed reconcile of Widget `name` on stdout (an `F` line). */
export function reportFailure(name: string, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  process.stdout.write(`F ${shard} ${name} ${message.replaceAll('\n', ' ')}\n`);
}

/** Runs `mgr` until SIGTERM: announces its /metrics URL (an `M` line), and a clean exit (`X`). */
export async function runShard(mgr: Manager): Promise<void> {
  const announce = setInterval(() => {
    if (!mgr.metricsUrl) return;
    process.stdout.write(`M ${shard} ${mgr.metricsUrl}\n`);
    clearInterval(announce);
  }, 50);
  await mgr.start();
  process.stdout.write(`X ${shard} exited cleanly\n`);
}

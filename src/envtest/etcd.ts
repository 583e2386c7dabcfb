import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ManagedProcess, type Reaper } from './process.ts';
import { freePort } from './ports.ts';
import { waitUntilReady } from './wait.ts';

export interface Etcd {
  readonly url: string;
  readonly process: ManagedProcess;
}

/**
 * Starts etcd on free loopback ports with its data in `dataDir`, and waits until it is healthy;
 * `signal` aborts the wait and stops it.
 */
export async function startEtcd(
  binDir: string,
  dataDir: string,
  extraArgs: readonly string[] = [],
  reaper?: Reaper,
  signal?: AbortSignal,
): Promise<Etcd> {
  // A retried start must not find the data of a member that never ran.
  await rm(join(dataDir, 'etcd'), { recursive: true, force: true });
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${clientPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  const args = [
    `--data-dir=${join(dataDir, 'etcd')}`,
    `--listen-client-urls=${url}`,
    `--advertise-client-urls=${url}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=default=${peerUrl}`,
    // Test data need not survive a power cut; fsync dominates etcd's latency on a small disk.
    '--unsafe-no-fsync',
    '--log-level=warn',
    // As kubeadm's and k3s's etcd run: progress every 5 s lets the API server's watch cache send
    // bookmarks to quiet watches each minute, which etcd's default of 10 minutes does not.
    '--watch-progress-notify-interval=5s',
    ...extraArgs,
  ];
  const process = new ManagedProcess('etcd', join(binDir, 'etcd'), args, { reaper });
  await waitUntilReady(process, async () => (await fetch(`${url}/health`)).ok, 30_000, signal);
  return { url, process };
}

import { join } from 'node:path';
import { KWOK_STAGES_FILE } from './kwok-release.ts';
import { ManagedProcess, type Reaper } from './process.ts';
import { httpStatus } from './probe.ts';
import { freePort } from './ports.ts';
import { waitUntilReady } from './wait.ts';

/** The annotation kwok's documentation gives its fake nodes; kwok manages the Nodes that carry it. */
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
export const KWOK_NODE_ANNOTATION_VALUE = 'fake';

export interface KwokOptions {
  binDir: string;
  kubeconfigPath: string;
  /** The environment's folder; kwok's own work folder goes in it. */
  dir: string;
  /** Watches the process from its spawn. */
  reaper?: Reaper;
  /** Aborts the wait for /healthz and stops the process. */
  signal?: AbortSignal;
}

/**
 * Starts kwok against the test API server: it plays the kubelet of every Node annotated
 * `kwok.x-k8s.io/node=fake`, moving the Node and its Pods through kwok's default stages. Resolves
 * once its /healthz answers.
 */
export async function startKwok(options: KwokOptions): Promise<ManagedProcess> {
  const port = await freePort();
  const args = [
    `--kubeconfig=${options.kubeconfigPath}`,
    `--config=${join(options.binDir, KWOK_STAGES_FILE)}`,
    `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=${KWOK_NODE_ANNOTATION_VALUE}`,
    `--server-address=127.0.0.1:${port}`,
    // Pod IPs out of the Service range (10.0.0.0/16), which kwok's default 10.0.0.1/24 overlaps.
    '--cidr=10.244.0.1/16',
    // A kubelet's lease: renewed every quarter of it, as the node lifecycle controller expects.
    '--node-lease-duration-seconds=40',
  ];
  const process = new ManagedProcess('kwok', join(options.binDir, 'kwok'), args, {
    // kwok also reads a kwok.yaml from its work folder, ~/.kwok unless told: keep a user's out.
    env: { ...globalThis.process.env, KWOK_WORKDIR: join(options.dir, 'kwok') },
    reaper: options.reaper,
  });
  await waitUntilReady(
    process,
    async () => (await httpStatus(`http://127.0.0.1:${port}/healthz`)) === 200,
    60_000,
    options.signal,
  );
  return process;
}

import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CertificateAuthority, CertKeyPair } from '../runtime/tls/certificate-authority.ts';
import { ManagedProcess, type Reaper } from './process.ts';
import { freePort } from './ports.ts';
import { httpsStatus } from './probe.ts';
import { waitUntilReady } from './wait.ts';

export interface KubeApiServer {
  readonly url: string;
  readonly process: ManagedProcess;
  /** Files the kube-controller-manager needs to sign service account tokens. */
  readonly serviceAccountKeyFile: string;
  readonly caFile: string;
}

export interface KubeApiServerOptions {
  binDir: string;
  dir: string;
  etcdUrl: string;
  ca: CertificateAuthority;
  /** Identity the readiness probe uses. */
  admin: CertKeyPair;
  /** Port to listen on. Default: a free one. A restart passes the old port so clients keep working. */
  port?: number;
  extraArgs?: readonly string[];
  startTimeoutMs?: number;
  /** Watches the process from its spawn. */
  reaper?: Reaper;
  /** Aborts the wait for /readyz and stops the process. */
  signal?: AbortSignal;
}

/**
 * Starts kube-apiserver on a free loopback port, serving TLS with a certificate from `ca`,
 * authenticating client certificates from `ca`, authorizing with RBAC, and signing service account
 * tokens. Resolves once /readyz answers 200.
 */
export async function startKubeApiServer(options: KubeApiServerOptions): Promise<KubeApiServer> {
  const port = options.port ?? (await freePort());
  const files = await writeServerFiles(options);
  const args = [
    `--etcd-servers=${options.etcdUrl}`,
    `--etcd-prefix=/registry`,
    `--bind-address=127.0.0.1`,
    `--advertise-address=127.0.0.1`,
    `--secure-port=${port}`,
    `--cert-dir=${options.dir}`,
    `--tls-cert-file=${files.servingCert}`,
    `--tls-private-key-file=${files.servingKey}`,
    `--client-ca-file=${files.ca}`,
    '--authorization-mode=RBAC',
    // A /24 runs out after about 250 Services; benchmarks and e2e tests make more.
    '--service-cluster-ip-range=10.0.0.0/16',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${files.saPublic}`,
    `--service-account-signing-key-file=${files.saPrivate}`,
    '--allow-privileged=true',
    // The kubernetes Service's endpoints would point at 127.0.0.1, which is not allowed.
    '--endpoint-reconciler-type=none',
    '--profiling=false',
    ...(options.extraArgs ?? []),
  ];
  const process = new ManagedProcess('kube-apiserver', join(options.binDir, 'kube-apiserver'), args, {
    reaper: options.reaper,
  });
  const url = `https://127.0.0.1:${port}`;
  const tls = { ca: options.ca.cert, cert: options.admin.cert, key: options.admin.key };
  await waitUntilReady(
    process,
    async () => (await httpsStatus(`${url}/readyz`, tls)) === 200,
    options.startTimeoutMs ?? 90_000,
    options.signal,
  );
  return { url, process, serviceAccountKeyFile: files.saPrivate, caFile: files.ca };
}

async function writeServerFiles(
  options: KubeApiServerOptions,
): Promise<Record<'ca' | 'servingCert' | 'servingKey' | 'saPublic' | 'saPrivate', string>> {
  const serving = options.ca.issue({
    commonName: 'kube-apiserver',
    usage: 'server',
    hosts: [
      'localhost',
      'kubernetes',
      'kubernetes.default',
      'kubernetes.default.svc',
      '127.0.0.1',
      '10.0.0.1',
    ],
  });
  const sa = generateKeyPairSync('ec', {
    namedCurve: 'prime256v1',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const files = {
    ca: join(options.dir, 'ca.crt'),
    servingCert: join(options.dir, 'apiserver.crt'),
    servingKey: join(options.dir, 'apiserver.key'),
    saPublic: join(options.dir, 'sa.pub'),
    saPrivate: join(options.dir, 'sa.key'),
  };
  await writeFile(files.ca, options.ca.cert);
  await writeFile(files.servingCert, serving.cert);
  await writeFile(files.servingKey, serving.key, { mode: 0o600 });
  await writeFile(files.saPublic, sa.publicKey);
  await writeFile(files.saPrivate, sa.privateKey, { mode: 0o600 });
  return files;
}

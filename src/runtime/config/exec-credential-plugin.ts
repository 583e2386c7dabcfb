import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { Clock } from '../clock/clock.ts';
import { sharedWork, untilAborted } from '../clock/shared-work.ts';
import { errorMessage } from '../log/error-message.ts';
import type { KubeconfigExec } from './kubeconfig-file.ts';
import { KubeconfigError } from './kubeconfig-file.ts';
import type { Credentials, RequestCredentials } from './rest-config.ts';

const SUPPORTED_API_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

/** The cluster as an exec plugin sees it when `provideClusterInfo` is set. */
export interface ExecClusterInfo {
  readonly server: string;
  readonly 'tls-server-name'?: string;
  readonly 'insecure-skip-tls-verify'?: boolean;
  readonly 'certificate-authority-data'?: string;
  readonly 'proxy-url'?: string;
  readonly config?: unknown;
}

interface Issued {
  readonly credentials: RequestCredentials;
  /** Wall-clock milliseconds; undefined: until the server rejects it. */
  readonly expiresAt: number | undefined;
}

/**
 * Credentials from an exec plugin (client.authentication.k8s.io/v1 or v1beta1), as EKS, GKE and AKS
 * configure: the command runs with KUBERNETES_EXEC_INFO set and prints an ExecCredential with a
 * token or a client certificate. Its answer is kept until its expirationTimestamp, or until the
 * server answers 401 to it; concurrent requests share one run. The operator has no terminal, so a
 * plugin that must prompt (interactiveMode Always) is refused when the config is loaded.
 */
export function execCredentials(
  exec: KubeconfigExec,
  cluster: ExecClusterInfo,
  clock: Clock,
  where: string,
): Credentials {
  checkExecConfig(exec, where);
  let issued: Issued | undefined;
  let running: Promise<Issued> | undefined;

  const valid = (i: Issued | undefined): i is Issued =>
    i !== undefined && (i.expiresAt === undefined || clock.now() < i.expiresAt);

  return {
    async get(signal?: AbortSignal): Promise<RequestCredentials> {
      if (valid(issued)) return issued.credentials;
      // A request already given up starts no run.
      signal?.throwIfAborted();
      // One run serves every waiting request. A request that gives up stops waiting, not the run,
      // which keeps its answer even when every waiter gave up first; its failure then goes unseen.
      running ??= sharedWork(
        runPlugin(exec, cluster)
          .then((answer) => (issued = answer))
          .finally(() => {
            running = undefined;
          }),
      );
      return (await untilAborted(running, signal)).credentials;
    },
    rejected(used: RequestCredentials): void {
      if (issued?.credentials === used) issued = undefined;
    },
  };
}

function checkExecConfig(exec: KubeconfigExec, where: string): void {
  if (!exec.command) throw new KubeconfigError(`${where}: the user's exec plugin has no command`);
  if (!SUPPORTED_API_VERSIONS.includes(exec.apiVersion)) {
    throw new KubeconfigError(
      `${where}: exec plugin apiVersion "${exec.apiVersion}" is not supported: use ${SUPPORTED_API_VERSIONS.join(' or ')}`,
    );
  }
  const mode = exec.interactiveMode ?? (exec.apiVersion.endsWith('/v1beta1') ? 'IfAvailable' : undefined);
  if (mode === undefined) {
    throw new KubeconfigError(
      `${where}: exec plugin needs interactiveMode (Never, IfAvailable or Always) in apiVersion ${exec.apiVersion}`,
    );
  }
  if (!['Never', 'IfAvailable', 'Always'].includes(mode)) {
    throw new KubeconfigError(
      `${where}: exec plugin interactiveMode "${mode}" is not one of Never, IfAvailable, Always`,
    );
  }
  if (mode === 'Always') {
    throw new KubeconfigError(
      `${where}: exec plugin ${exec.command} wants a terminal (interactiveMode Always), which an operator has not`,
    );
  }
}

async function runPlugin(exec: KubeconfigExec, cluster: ExecClusterInfo): Promise<Issued> {
  const info = {
    apiVersion: exec.apiVersion,
    kind: 'ExecCredential',
    spec: { interactive: false, ...(exec.provideClusterInfo ? { cluster } : {}) },
  };
  const env: NodeJS.ProcessEnv = { ...process.env, KUBERNETES_EXEC_INFO: JSON.stringify(info) };
  for (const { name, value } of exec.env) env[name] = value;
  // Loaded here, as only a kubeconfig with an exec plugin needs it.
  const { spawn } = await import('node:child_process');
  const stdout = await new Promise<string>((resolve, reject) => {
    // stderr goes to ours, as kubectl shows a plugin's messages; no stdin, for nobody can answer.
    const child = spawn(exec.command, [...exec.args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', (err: NodeJS.ErrnoException) => {
      const hint = exec.installHint ? `\n${exec.installHint}` : '';
      reject(
        new Error(
          err.code === 'ENOENT'
            ? `exec plugin ${exec.command}: not found${hint}`
            : `exec plugin ${exec.command}: ${err.message}`,
        ),
      );
    });
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(chunks).toString('utf8'));
      else reject(new Error(`exec plugin ${exec.command} exited with code ${code ?? 'null (killed)'}`));
    });
  });
  return issuedFrom(stdout, exec);
}

/** A pair TLS cannot use is a failed run, as client-go's X509KeyPair check makes it, not a cached credential. */
function checkKeyPair(cert: string, key: string, fail: (what: string) => Error): void {
  try {
    const certificate = new X509Certificate(cert);
    if (!certificate.checkPrivateKey(createPrivateKey(key))) throw new Error('the key does not match');
  } catch (err) {
    throw fail(`printed a client certificate and key TLS cannot use: ${errorMessage(err)}`);
  }
}

function issuedFrom(stdout: string, exec: KubeconfigExec): Issued {
  const fail = (what: string): Error => new Error(`exec plugin ${exec.command}: ${what}`);
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch {
    throw fail('did not print an ExecCredential as JSON');
  }
  const credential = doc as { apiVersion?: unknown; kind?: unknown; status?: Record<string, unknown> };
  if (credential.kind !== 'ExecCredential') throw fail('did not print an ExecCredential');
  if (credential.apiVersion !== exec.apiVersion) {
    throw fail(
      `printed apiVersion ${String(credential.apiVersion)}, the kubeconfig asks for ${exec.apiVersion}`,
    );
  }
  const status = credential.status ?? {};
  const token = typeof status['token'] === 'string' ? status['token'] : '';
  const cert = typeof status['clientCertificateData'] === 'string' ? status['clientCertificateData'] : '';
  const key = typeof status['clientKeyData'] === 'string' ? status['clientKeyData'] : '';
  if (!token && !(cert && key)) throw fail('printed neither a token nor a client certificate and key');
  if ((cert === '') !== (key === ''))
    throw fail('printed a client certificate without its key, or a key without its certificate');
  if (cert) checkKeyPair(cert, key, fail);
  const expiry =
    typeof status['expirationTimestamp'] === 'string' ? Date.parse(status['expirationTimestamp']) : undefined;
  if (Number.isNaN(expiry))
    throw fail(
      `printed an expirationTimestamp that is not RFC 3339: ${String(status['expirationTimestamp'])}`,
    );
  return {
    credentials: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(cert ? { clientCertificate: { cert, key } } : {}),
    },
    expiresAt: expiry,
  };
}

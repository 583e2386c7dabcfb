import { readFileSync } from 'node:fs';
import type { Clock } from '../clock/clock.ts';
import { execCredentials, type ExecClusterInfo } from './exec-credential-plugin.ts';
import {
  KubeconfigError,
  type Kubeconfig,
  type KubeconfigCluster,
  type KubeconfigUser,
} from './kubeconfig-file.ts';
import {
  staticCredentials,
  type ClientCertificate,
  type Credentials,
  type RestConfig,
} from './rest-config.ts';
import { tokenFileCredentials } from './token-file-credentials.ts';

/**
 * The RestConfig of one context of a kubeconfig (its current-context unless `context` is given), as
 * client-go's clientcmd builds a rest.Config: files named by the config are read now (token files
 * again later), and every combination client-go refuses is refused with what to change.
 */
export function restConfigFromKubeconfig(config: Kubeconfig, clock: Clock, context?: string): RestConfig {
  const where = `kubeconfig ${config.files.join(':') || '(none)'}`;
  const contextName = context ?? config.currentContext;
  if (!contextName) {
    throw new KubeconfigError(
      `${where}: no current-context; set one with \`kubectl config use-context\` or pick a context`,
    );
  }
  const ctx = config.contexts.get(contextName);
  if (!ctx) {
    const known = [...config.contexts.keys()];
    throw new KubeconfigError(
      `${where}: no context "${contextName}"${known.length ? ` (it has ${known.join(', ')})` : ''}`,
    );
  }
  const cluster = config.clusters.get(ctx.cluster);
  if (!cluster)
    throw new KubeconfigError(
      `${where}: context "${contextName}" names cluster "${ctx.cluster}", which it does not define`,
    );
  const user: KubeconfigUser | undefined = ctx.user
    ? config.users.get(ctx.user)
    : { impersonateGroups: [], impersonateExtra: {} };
  if (!user)
    throw new KubeconfigError(
      `${where}: context "${contextName}" names user "${ctx.user}", which it does not define`,
    );
  const at = `${where}, context "${contextName}"`;
  const ca = certificateAuthority(cluster, at);
  if (cluster.insecureSkipTlsVerify && ca) {
    throw new KubeconfigError(
      `${at}: insecure-skip-tls-verify and a certificate authority together: drop one`,
    );
  }
  const server = serverOf(cluster, at);
  // As clientcmd: who the user is goes only to a server reached over TLS, never in clear text.
  const identified = server.startsWith('https:');
  const clientCertificate = identified ? clientCertificateOf(user, at) : undefined;
  const credentials = identified ? credentialsOf(user, cluster, ca, clientCertificate, clock, at) : undefined;
  const impersonate = identified ? impersonationOf(user) : undefined;
  return {
    server,
    namespace: ctx.namespace ?? 'default',
    ...(ca ? { ca } : {}),
    ...(clientCertificate ? { clientCertificate } : {}),
    ...(cluster.insecureSkipTlsVerify ? { insecureSkipTlsVerify: true } : {}),
    ...(cluster.tlsServerName ? { tlsServerName: cluster.tlsServerName } : {}),
    ...(cluster.proxyUrl ? { proxyUrl: proxyUrlOf(cluster.proxyUrl, at) } : {}),
    ...(credentials ? { credentials } : {}),
    ...(impersonate ? { impersonate } : {}),
    source: `context ${contextName} of ${config.files.join(':')}`,
  };
}

function serverOf(cluster: KubeconfigCluster, at: string): string {
  if (!cluster.server) throw new KubeconfigError(`${at}: its cluster has no server`);
  // As client-go's DefaultServerURL: a server without a scheme is https.
  const server = /^[a-z][a-z0-9+.-]*:\/\//i.test(cluster.server)
    ? cluster.server
    : `https://${cluster.server}`;
  try {
    const url = new URL(server);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)');
    return server.replace(/\/$/, '');
  } catch {
    throw new KubeconfigError(`${at}: server "${cluster.server}" is not an https:// URL`);
  }
}

function impersonationOf(user: KubeconfigUser): RestConfig['impersonate'] {
  const hasExtra = Object.keys(user.impersonateExtra).length > 0;
  if (!user.impersonate && !user.impersonateUid && user.impersonateGroups.length === 0 && !hasExtra)
    return undefined;
  return {
    user: user.impersonate ?? '',
    groups: user.impersonateGroups,
    ...(user.impersonateUid ? { uid: user.impersonateUid } : {}),
    extra: user.impersonateExtra,
  };
}

function proxyUrlOf(proxyUrl: string, at: string): string {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major === 24 && minor < 5) {
    throw new KubeconfigError(`${at}: proxy-url needs Node 24.5 or later (this is ${process.versions.node})`);
  }
  const scheme = /^([a-z0-9+.-]+):/i.exec(proxyUrl)?.[1]?.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') {
    throw new KubeconfigError(
      `${at}: proxy-url ${proxyUrl}: only http:// and https:// proxies are supported`,
    );
  }
  return proxyUrl;
}

function certificateAuthority(cluster: KubeconfigCluster, at: string): string | undefined {
  // As client-go: the data wins over the file.
  if (cluster.certificateAuthorityData)
    return fromBase64(cluster.certificateAuthorityData, 'certificate-authority-data', at);
  if (cluster.certificateAuthority)
    return readNamedFile(cluster.certificateAuthority, 'certificate-authority', at);
  return undefined;
}

function clientCertificateOf(user: KubeconfigUser, at: string): ClientCertificate | undefined {
  const cert = user.clientCertificateData
    ? fromBase64(user.clientCertificateData, 'client-certificate-data', at)
    : user.clientCertificate
      ? readNamedFile(user.clientCertificate, 'client-certificate', at)
      : undefined;
  const key = user.clientKeyData
    ? fromBase64(user.clientKeyData, 'client-key-data', at)
    : user.clientKey
      ? readNamedFile(user.clientKey, 'client-key', at)
      : undefined;
  if (!cert && !key) return undefined;
  if (!cert || !key)
    throw new KubeconfigError(`${at}: a client certificate needs both client-certificate and client-key`);
  return { cert, key };
}

function credentialsOf(
  user: KubeconfigUser,
  cluster: KubeconfigCluster,
  ca: string | undefined,
  clientCertificate: ClientCertificate | undefined,
  clock: Clock,
  at: string,
): Credentials | undefined {
  if (user.authProvider !== undefined) {
    const instead =
      user.authProvider === 'oidc'
        ? 'the oidc auth-provider is not supported: use the kubelogin exec plugin (kubectl oidc-login), which also refreshes the token'
        : `auth-provider "${user.authProvider}" was removed from Kubernetes clients: use its exec plugin (kubelogin for azure, gke-gcloud-auth-plugin for gcp)`;
    throw new KubeconfigError(`${at}: ${instead}`);
  }
  if (user.username !== undefined || user.password !== undefined) {
    throw new KubeconfigError(
      `${at}: username/password: Kubernetes API servers no longer take basic authentication (removed in 1.19); use a token, a client certificate or an exec plugin`,
    );
  }
  // As client-go: a token file wins over an inline token, and a static token over an exec plugin.
  if (user.tokenFile) return tokenFileCredentials(user.tokenFile, clock, user.token);
  if (user.token) return staticCredentials(`Bearer ${user.token}`);
  // As client-go: an exec plugin is not run for a user that has a client certificate of its own.
  if (clientCertificate) return undefined;
  if (user.exec) return execCredentials(user.exec, execClusterInfo(cluster, ca), clock, at);
  return undefined;
}

function execClusterInfo(cluster: KubeconfigCluster, ca: string | undefined): ExecClusterInfo {
  return {
    server: cluster.server ?? '',
    ...(cluster.tlsServerName ? { 'tls-server-name': cluster.tlsServerName } : {}),
    ...(cluster.insecureSkipTlsVerify ? { 'insecure-skip-tls-verify': true } : {}),
    ...(ca ? { 'certificate-authority-data': Buffer.from(ca).toString('base64') } : {}),
    ...(cluster.proxyUrl ? { 'proxy-url': cluster.proxyUrl } : {}),
    ...(cluster.execExtension === undefined ? {} : { config: cluster.execExtension }),
  };
}

function fromBase64(data: string, field: string, at: string): string {
  const text = Buffer.from(data, 'base64').toString('utf8');
  if (!text.includes('-----BEGIN')) throw new KubeconfigError(`${at}: ${field} is not base64 of a PEM block`);
  return text;
}

function readNamedFile(path: string, field: string, at: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new KubeconfigError(
      `${at}: ${field} ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(err)}`,
    );
  }
}

import { KubeConfig } from '@kubernetes/client-node';
import type { CertKeyPair } from '../runtime/tls/certificate-authority.ts';

const b64 = (pem: string): string => Buffer.from(pem).toString('base64');

/** A KubeConfig for one client-certificate identity on a test API server. */
export function kubeConfigFor(
  server: string,
  caPem: string,
  user: string,
  identity: CertKeyPair,
): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'envtest', server, caData: b64(caPem), skipTLSVerify: false }],
    users: [{ name: user, certData: b64(identity.cert), keyData: b64(identity.key) }],
    contexts: [{ name: user === 'admin' ? 'envtest' : `envtest-${user}`, cluster: 'envtest', user }],
    currentContext: user === 'admin' ? 'envtest' : `envtest-${user}`,
  });
  return kc;
}

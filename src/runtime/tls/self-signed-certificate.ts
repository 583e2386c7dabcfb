import { hostname } from 'node:os';
import { CertificateAuthority, type CertKeyPair } from './certificate-authority.ts';

/**
 * A serving certificate for `localhost`, the loopback addresses, the machine's host name and
 * `hosts`, signed by a throwaway authority: what the metrics server serves when it is given no
 * certificate, as controller-runtime's. Clients must skip verification or trust it explicitly.
 *
 * @example
 * ```ts
 * const { cert, key } = selfSignedCertificate('metrics', ['webapp-metrics.system.svc']);
 * ```
 */
export function selfSignedCertificate(commonName: string, hosts: readonly string[] = []): CertKeyPair {
  const names = new Set(['localhost', '127.0.0.1', '::1', hostname(), ...hosts]);
  return CertificateAuthority.create(`${commonName}-ca`).issue({
    commonName,
    usage: 'server',
    hosts: [...names],
  });
}

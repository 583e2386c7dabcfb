import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * The first of `candidates` (host names or IP addresses) that the PEM certificate `cert` (its first
 * certificate, the leaf) is valid for, or undefined when it names none of them.
 */
export function hostCoveredBy(cert: string, candidates: readonly string[]): string | undefined {
  const leaf = new X509Certificate(cert);
  return candidates.find((host) =>
    isIP(host) ? leaf.checkIP(host) !== undefined : leaf.checkHost(host) !== undefined,
  );
}

import type { CertKeyPair } from './certificate-authority.ts';

/** A serving certificate that may be replaced while a server runs (a renewed Secret, cert-manager). */
export interface CertificateSource {
  /** The pair to serve now. */
  current(): CertKeyPair;
  /** Calls `listener` with every new pair; returns the function that stops the calls. */
  onChange(listener: (pair: CertKeyPair) => void): () => void;
  /** Stops watching for new pairs. */
  close(): void;
}

/** A certificate that never changes, such as the self-signed one made at start-up. */
export function fixedCertificate(pair: CertKeyPair): CertificateSource {
  return { current: () => pair, onChange: () => () => undefined, close: () => undefined };
}

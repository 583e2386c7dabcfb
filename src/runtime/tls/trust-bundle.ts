import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The PEM bundle a client of a server serving the certificate of `certDir` should trust: the
 * folder's `caName` (the `ca.crt` cert-manager and Kubernetes write into a TLS Secret, which
 * Kubebuilder mounts as the webhook certificate folder) when it is there, else `servingCert`, the
 * certificate chain the server serves. A Go client such as kube-apiserver trusts a certificate
 * found in its bundle as it is, so the second pins the serving certificate: it works for a
 * self-signed certificate, or a chain that ends with its root, until the certificate is renewed.
 */
export async function trustBundle(certDir: string, caName: string, servingCert: string): Promise<string> {
  try {
    return await readFile(join(certDir, caName), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return servingCert;
    throw err;
  }
}

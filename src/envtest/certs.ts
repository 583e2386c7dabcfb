import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

/** A certificate and its private key, both PEM. */
export interface CertKeyPair {
  readonly cert: string;
  readonly key: string;
}

export interface IssueOptions {
  commonName: string;
  /** Subject O= entries; Kubernetes reads them as the user's groups. */
  organizations?: readonly string[];
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
  usage: 'server' | 'client';
  /** Default: 1 year. */
  validDays?: number;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

/**
 * A throw-away certificate authority for a test control plane: it signs the API server's serving
 * certificate and the client certificates of the identities tests act as. ECDSA P-256 keeps key
 * generation in the milliseconds.
 */
export class CertificateAuthority {
  readonly cert: string;
  readonly #certificate: x509.X509Certificate;
  readonly #key: CryptoKey;
  #serial = 1;

  private constructor(certificate: x509.X509Certificate, key: CryptoKey) {
    this.#certificate = certificate;
    this.#key = key;
    this.cert = certificate.toString('pem');
  }

  static async create(commonName: string): Promise<CertificateAuthority> {
    const keys = await generateKeys();
    const now = Date.now();
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: randomSerial(),
      name: new x509.Name([{ CN: [commonName] }]),
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + 10 * 365 * DAY_MS),
      signingAlgorithm: ALGORITHM,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    return new CertificateAuthority(certificate, keys.privateKey);
  }

  /** Issues a serving or client certificate signed by this authority. */
  async issue(options: IssueOptions): Promise<CertKeyPair> {
    const keys = await generateKeys();
    const now = Date.now();
    const subject = new x509.Name([
      { CN: [options.commonName] },
      ...(options.organizations ?? []).map((o) => ({ O: [o] })),
    ]);
    const altNames = [
      ...(options.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
      ...(options.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
    ];
    const extensions: x509.Extension[] = [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([
        options.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth,
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(this.#certificate),
    ];
    if (altNames.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(altNames));
    const certificate = await x509.X509CertificateGenerator.create({
      serialNumber: `${randomSerial()}${(this.#serial++).toString(16).padStart(4, '0')}`,
      subject,
      issuer: this.#certificate.subject,
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + (options.validDays ?? 365) * DAY_MS),
      signingAlgorithm: ALGORITHM,
      publicKey: keys.publicKey,
      signingKey: this.#key,
      extensions,
    });
    return { cert: certificate.toString('pem'), key: await privateKeyPem(keys.privateKey) };
  }
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/** A positive 64-bit serial in hex (the top bit clear keeps it positive in DER). */
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(8));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}

import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import * as der from './der.ts';

/** A certificate and its private key, both PEM. */
export interface CertKeyPair {
  readonly cert: string;
  readonly key: string;
}

export interface IssueOptions {
  commonName: string;
  /** Subject O= entries; Kubernetes reads them as the user's groups. */
  organizations?: readonly string[];
  /** DNS names and IP addresses the certificate is valid for. */
  hosts?: readonly string[];
  usage: 'server' | 'client';
  /** Default: 365. */
  validDays?: number;
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

const DAY_MS = 86_400_000;
const SIGNATURE_ALGORITHM = der.sequence(der.objectIdentifier(OID.ecdsaWithSha256));

/**
 * A certificate authority made on the spot: it signs serving certificates (webhooks, metrics, a
 * test API server) and client certificates. ECDSA P-256 keeps key generation in the milliseconds.
 */
export class CertificateAuthority {
  /** The authority's own certificate, PEM: the CA bundle clients trust. */
  readonly cert: string;
  readonly #key: KeyObject;
  readonly #subject: der.Der;
  readonly #keyId: Buffer;

  private constructor(cert: string, key: KeyObject, subject: der.Der, keyId: Buffer) {
    this.cert = cert;
    this.#key = key;
    this.#subject = subject;
    this.#keyId = keyId;
  }

  static create(commonName: string, validDays = 3650): CertificateAuthority {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const subject = distinguishedName(commonName, []);
    const keyId = subjectKeyId(publicKey);
    const extensions = [
      extension(OID.basicConstraints, der.sequence(der.boolean(true)), true),
      extension(
        OID.keyUsage,
        keyUsageBits({ keyCertSign: true, cRLSign: true, digitalSignature: true }),
        true,
      ),
      extension(OID.subjectKeyIdentifier, der.octetString(keyId)),
    ];
    const cert = signCertificate({
      subject,
      issuer: subject,
      publicKey,
      signingKey: privateKey,
      validDays,
      extensions,
    });
    return new CertificateAuthority(cert, privateKey, subject, keyId);
  }

  /** Issues a serving or client certificate signed by this authority. */
  issue(options: IssueOptions): CertKeyPair {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const extensions = [
      extension(OID.basicConstraints, der.sequence(), true),
      extension(OID.keyUsage, keyUsageBits({ digitalSignature: true, keyEncipherment: true }), true),
      extension(
        OID.extKeyUsage,
        der.sequence(der.objectIdentifier(options.usage === 'server' ? OID.serverAuth : OID.clientAuth)),
      ),
      extension(OID.authorityKeyIdentifier, der.sequence(der.implicit(0, this.#keyId))),
    ];
    if (options.hosts?.length) extensions.push(extension(OID.subjectAltName, subjectAltNames(options.hosts)));
    const cert = signCertificate({
      subject: distinguishedName(options.commonName, options.organizations ?? []),
      issuer: this.#subject,
      publicKey,
      signingKey: this.#key,
      validDays: options.validDays ?? 365,
      extensions,
    });
    return { cert, key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
  }

  /** The authority's private key, PEM, for tools that sign with it (kube-controller-manager). */
  keyPem(): string {
    return this.#key.export({ type: 'pkcs8', format: 'pem' }).toString();
  }
}

interface CertificateSpec {
  subject: der.Der;
  issuer: der.Der;
  publicKey: KeyObject;
  signingKey: KeyObject;
  validDays: number;
  extensions: der.Der[];
}

function signCertificate(spec: CertificateSpec): string {
  const now = Date.now();
  const tbs = der.sequence(
    der.explicit(0, der.smallInteger(2)),
    der.unsignedInteger(randomBytes(16)),
    SIGNATURE_ALGORITHM,
    spec.issuer,
    // Backdated a minute: clocks of the processes that check it may lag a little.
    der.sequence(der.time(new Date(now - 60_000)), der.time(new Date(now + spec.validDays * DAY_MS))),
    spec.subject,
    spec.publicKey.export({ type: 'spki', format: 'der' }),
    der.explicit(3, der.sequence(...spec.extensions)),
  );
  const signature = sign('sha256', tbs, spec.signingKey);
  const certificate = der.sequence(tbs, SIGNATURE_ALGORITHM, der.bitString(signature));
  const base64 = certificate.toString('base64').replace(/.{1,64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE-----\n${base64}-----END CERTIFICATE-----\n`;
}

function distinguishedName(commonName: string, organizations: readonly string[]): der.Der {
  const rdn = (oid: string, value: string): der.Der =>
    der.set(der.sequence(der.objectIdentifier(oid), der.utf8String(value)));
  return der.sequence(...organizations.map((o) => rdn(OID.organization, o)), rdn(OID.commonName, commonName));
}

function extension(oid: string, value: der.Der, critical = false): der.Der {
  return der.sequence(
    der.objectIdentifier(oid),
    ...(critical ? [der.boolean(true)] : []),
    der.octetString(value),
  );
}

function keyUsageBits(usage: {
  digitalSignature?: boolean;
  keyEncipherment?: boolean;
  keyCertSign?: boolean;
  cRLSign?: boolean;
}): der.Der {
  // Bit 0 is the most significant bit of the first byte.
  const bits =
    (usage.digitalSignature ? 0x80 : 0) |
    (usage.keyEncipherment ? 0x20 : 0) |
    (usage.keyCertSign ? 0x04 : 0) |
    (usage.cRLSign ? 0x02 : 0);
  let unused = 0;
  while (unused < 7 && !((bits >> unused) & 1)) unused++;
  return der.bitString(Buffer.from([bits]), unused);
}

function subjectAltNames(hosts: readonly string[]): der.Der {
  return der.sequence(
    ...hosts.map((host) =>
      isIP(host) ? der.implicit(7, ipBytes(host)) : der.implicit(2, Buffer.from(host, 'ascii')),
    ),
  );
}

function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  const [head = '', tail = ''] = ip.split('::');
  const groups = (part: string): string[] => (part ? part.split(':') : []);
  const missing = 8 - groups(head).length - groups(tail).length;
  const all = [...groups(head), ...Array<string>(ip.includes('::') ? missing : 0).fill('0'), ...groups(tail)];
  return Buffer.from(all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
}

function subjectKeyId(publicKey: KeyObject): Buffer {
  return createHash('sha1')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest();
}

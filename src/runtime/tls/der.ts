/**
 * The few DER (ASN.1) encoders an X.509 certificate needs. Node's crypto can sign and parse
 * certificates but not build them; these ~80 lines spare the runtime a dependency for it.
 */
export type Der = Buffer;

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** A tag-length-value triple. */
export function tlv(tag: number, content: Buffer): Der {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

export const sequence = (...items: Der[]): Der => tlv(0x30, Buffer.concat(items));
export const set = (...items: Der[]): Der => tlv(0x31, Buffer.concat(items));
export const octetString = (content: Buffer): Der => tlv(0x04, content);
export const utf8String = (text: string): Der => tlv(0x0c, Buffer.from(text, 'utf8'));
export const boolean = (value: boolean): Der => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
/** `[n] EXPLICIT`: a constructed context-specific wrapper. */
export const explicit = (n: number, content: Der): Der => tlv(0xa0 | n, content);
/** `[n] IMPLICIT` of a primitive type. */
export const implicit = (n: number, content: Buffer): Der => tlv(0x80 | n, content);

/** A non-negative INTEGER from big-endian bytes (a leading zero keeps the sign bit clear). */
export function unsignedInteger(bytes: Buffer): Der {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  return tlv(0x02, (trimmed[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export function smallInteger(n: number): Der {
  return unsignedInteger(Buffer.from([n]));
}

/** A BIT STRING holding whole bytes, or flag bits with the trailing unused ones counted. */
export function bitString(content: Buffer, unusedBits = 0): Der {
  return tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), content]));
}

export function objectIdentifier(dotted: string): Der {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime through 2049, GeneralizedTime after, as RFC 5280 requires. */
export function time(date: Date): Der {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : tlv(0x18, Buffer.from(`${iso}Z`));
}

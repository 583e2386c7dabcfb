import { isIPv6 } from 'node:net';

// Each check is the API server's own definition (kube-openapi's strfmt registry), where it can be
// matched exactly. A format it checks in a way not reproduced here (email through Go's
// net/mail.ParseAddress, uri, isbn, creditcard, ssn, rgbcolor, duration) is not checked: a value the
// API server accepts must never be refused here.
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** The time after the `t`; `.` is any character but a newline, as in Go's RE2. */
const TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u;
/** RFC 1034 names, letters and symbols of any script allowed; the dash written escaped for JavaScript. */
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
/** Go's net.ParseMAC: 6, 8 (EUI-64) or 20 (InfiniBand) bytes, as `xx:xx…`, `xx-xx…` or `xxxx.xxxx…`. */
const MAC_PAIRS = /^[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(?:\1[0-9a-fA-F]{2})*$/;
const MAC_QUADS = /^[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4})+$/;
const MAC_BYTES = new Set([6, 8, 20]);
/** IPv4 as Go before 1.17 parsed it: leading zeros allowed (and read as decimal). */
const IPV4_SLOPPY = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/;

/** A check per string format the API server validates, keyed by the name without dashes, as it keys them. */
const STRING_FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  uuid: (v) => UUID.test(v),
  uuid3: (v) => UUID3.test(v),
  uuid4: (v) => UUID4.test(v),
  uuid5: (v) => UUID5.test(v),
  ipv4: (v) => isIpSloppy(v) && v.includes('.'),
  ipv6: (v) => isIPv6(v) && v.includes(':'),
  cidr: isCidr,
  mac: isMac,
  hostname: isHostname,
  byte: (v) => BASE64.test(v),
  date: isDate,
  datetime: isDateTime,
  hexcolor: (v) => HEX_COLOR.test(v),
};

const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [-(2 ** 63), 2 ** 63 - 1],
};

/**
 * Why a value is not of its schema's `format`, or undefined when it is, or when the format is one
 * the API server does not check (it ignores formats it does not know).
 */
export function formatProblem(value: string | number | boolean, format: string): string | undefined {
  if (typeof value === 'number') {
    const range = INTEGER_RANGES[format];
    if (range === undefined || (value >= range[0] && value <= range[1])) return undefined;
    return `${value} does not fit in format ${format}`;
  }
  if (typeof value !== 'string') return undefined;
  const check = STRING_FORMATS[format.replaceAll('-', '')];
  return check === undefined || check(value) ? undefined : `must be of format ${format}`;
}

function isIpv4Sloppy(value: string): boolean {
  const match = IPV4_SLOPPY.exec(value);
  return match !== null && match.slice(1).every((part) => Number(part) <= 255);
}

/** An IPv4 or IPv6 address, the dotted part of an IPv6 one with leading zeros allowed too. */
function isIpSloppy(value: string): boolean {
  if (isIpv4Sloppy(value)) return true;
  const dotted = /^(.*:)([\d.]+)$/.exec(value);
  if (dotted === null) return isIPv6(value);
  const v4 = dotted[2] ?? '';
  if (!isIpv4Sloppy(v4)) return false;
  return isIPv6(`${dotted[1]}${v4.split('.').map(Number).join('.')}`);
}

function isCidr(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const [address, prefix] = [value.slice(0, slash), value.slice(slash + 1)];
  if (!/^\d+$/.test(prefix)) return false;
  const bits = isIpv4Sloppy(address) ? 32 : isIpSloppy(address) ? 128 : -1;
  return Number(prefix) <= bits;
}

function isMac(value: string): boolean {
  if (MAC_PAIRS.test(value)) return MAC_BYTES.has((value.length + 1) / 3);
  if (MAC_QUADS.test(value)) return MAC_BYTES.has((2 * (value.length + 1)) / 5);
  return false;
}

function isHostname(value: string): boolean {
  const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
  return HOSTNAME.test(value) && bytes(value) <= 255 && value.split('.').every((label) => bytes(label) <= 63);
}

function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

/** strfmt's IsDateTime: a date, a `t` (either case), a time whose fields do not pass 23:59:59. */
function isDateTime(value: string): boolean {
  if (value.length < 4) return false;
  const parts = value.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0] ?? '')) return false;
  const match = TIME.exec(parts[1] ?? '');
  return match !== null && (match[1] ?? '') <= '23' && (match[2] ?? '') <= '59' && (match[3] ?? '') <= '59';
}

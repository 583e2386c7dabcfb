import { isIPv4, isIPv6 } from 'node:net';

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const HOSTNAME_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
const MAC = /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$|^([0-9a-f]{4}\.){2}[0-9a-f]{4}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HEX_COLOR = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;
const EMAIL = /^[^\s@<>]+@[^\s@<>]+$/;

/** A check per string format the API server validates, keyed by the name without dashes, as it keys them. */
const STRING_FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  uuid: (v) => UUID.test(v),
  uuid3: (v) => UUID3.test(v),
  uuid4: (v) => UUID4.test(v),
  uuid5: (v) => UUID5.test(v),
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr: isCidr,
  mac: (v) => MAC.test(v),
  hostname: isHostname,
  email: (v) => EMAIL.test(v),
  byte: (v) => BASE64.test(v),
  date: isDate,
  datetime: (v) => DATE_TIME.test(v) && isDate(v.slice(0, 10)),
  hexcolor: (v) => HEX_COLOR.test(v),
};

const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
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

function isCidr(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  if (prefix === undefined || rest.length > 0 || !/^\d{1,3}$/.test(prefix)) return false;
  const bits = Number(prefix);
  return (isIPv4(address) && bits <= 32) || (isIPv6(address) && bits <= 128);
}

function isHostname(value: string): boolean {
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  return (
    name.length > 0 && name.length <= 253 && name.split('.').every((label) => HOSTNAME_LABEL.test(label))
  );
}

function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

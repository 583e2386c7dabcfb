/**
 * What makes a label key or value valid, with the API server's wording (apimachinery's
 * IsLabelKey and IsValidLabelValue), so a selector the cache refuses reads as the server's refusal.
 */

const NAME_FORMAT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const NAME = new RegExp(`^${NAME_FORMAT}$`);
const NAME_MESSAGE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const MAX_NAME_BYTES = 63;

const VALUE_FORMAT = `(${NAME_FORMAT})?`;
const VALUE = new RegExp(`^${VALUE_FORMAT}$`);
const VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

const SUBDOMAIN_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const SUBDOMAIN_FORMAT = `${SUBDOMAIN_LABEL}(\\.${SUBDOMAIN_LABEL})*`;
const SUBDOMAIN = new RegExp(`^${SUBDOMAIN_FORMAT}$`);
const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const MAX_SUBDOMAIN_BYTES = 253;

/** Why `key` is no label key (`[prefix/]name`, the prefix a DNS subdomain); empty when it is one. */
export function labelKeyErrors(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) {
    return [
      `a valid label key ${regexError(NAME_MESSAGE, NAME_FORMAT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  const errors: string[] = [];
  const name = parts.length === 2 ? (parts[1] ?? '') : key;
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    if (prefix === '') errors.push('prefix part must be non-empty');
    else errors.push(...subdomainErrors(prefix).map((e) => `prefix part ${e}`));
  }
  if (name === '') errors.push('name part must be non-empty');
  else if (bytes(name) > MAX_NAME_BYTES) errors.push(`name part ${maxLength(MAX_NAME_BYTES)}`);
  if (!NAME.test(name)) {
    errors.push(`name part ${regexError(NAME_MESSAGE, NAME_FORMAT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errors;
}

/** Why `value` is no label value (at most 63 bytes, empty allowed); empty when it is one. */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (bytes(value) > MAX_NAME_BYTES) errors.push(maxLength(MAX_NAME_BYTES));
  if (!VALUE.test(value))
    errors.push(regexError(VALUE_MESSAGE, VALUE_FORMAT, 'MyValue', 'my_value', '12345'));
  return errors;
}

function subdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (bytes(value) > MAX_SUBDOMAIN_BYTES) errors.push(maxLength(MAX_SUBDOMAIN_BYTES));
  if (!SUBDOMAIN.test(value)) errors.push(regexError(SUBDOMAIN_MESSAGE, SUBDOMAIN_FORMAT, 'example.com'));
  return errors;
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function maxLength(limit: number): string {
  return `must be no more than ${limit} bytes`;
}

/** apimachinery's RegexError wording, examples and all. */
function regexError(message: string, format: string, ...examples: string[]): string {
  const shown = examples.map((e) => `'${e}', `).join(' or ');
  return `${message} (e.g. ${shown}regex used for validation is '${format}')`;
}

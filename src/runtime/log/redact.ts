/** What a redacted value is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Field names whose values are credentials wherever they stand: HTTP headers, TokenReview and
 * TokenRequest bodies, kubeconfig entries. Compared lower-cased with `-` and `_` removed.
 */
const SENSITIVE_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'token',
  'bearertoken',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'password',
  'clientkeydata',
  'privatekey',
]);

/**
 * `Bearer <token>` and `Basic <credentials>` inside any text, e.g. an error's message. Lower-case
 * `basic` is left alone: it is far more often an English word than an authorization scheme.
 */
const AUTHORIZATION_VALUE = /\b(Bearer|bearer|BEARER|Basic|BASIC)\s+[\w\-.~+/]+=*/g;
/** A JWT (ServiceAccount and OIDC tokens), recognised by its base64url JSON header and payload. */
const JWT = /\beyJ[\w-]+\.eyJ[\w-]+\.[\w-]*/g;

/** kubectl keeps the whole applied object, Secret data included, in this annotation. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

type JsonObject = Record<string, unknown>;

/**
 * A `JSON.stringify` replacer that keeps credentials out of logs: a Secret's `data` and
 * `stringData` (in Secrets, SecretLists and bare objects shaped like a Secret), fields named like
 * credentials (`token`, `authorization`, ...), and bearer tokens or JWTs inside any string,
 * error messages included. Errors serialise as `{ name, message }` rather than `{}`.
 *
 * @example
 * ```ts
 * JSON.stringify({ headers: { Authorization: 'Bearer abc' } }, redactingReplacer);
 * // {"headers":{"Authorization":"[REDACTED]"}}
 * ```
 */
export function redactingReplacer(key: string, value: unknown): unknown {
  if (key !== '' && SENSITIVE_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''))) return REDACTED;
  if (typeof value === 'string') return redactText(value);
  if (value instanceof Error) return { name: value.name, message: redactText(value.message) };
  if (!isObject(value)) return value;
  if (value['kind'] === 'SecretList' && Array.isArray(value['items'])) {
    return {
      ...value,
      items: value['items'].map((item: unknown) => (isObject(item) ? redactSecret(item) : item)),
    };
  }
  return looksLikeSecret(value) ? redactSecret(value) : value;
}

/** Replaces bearer and basic credentials and JWTs inside free text. */
export function redactText(text: string): string {
  return text.replace(AUTHORIZATION_VALUE, `$1 ${REDACTED}`).replace(JWT, REDACTED);
}

/**
 * A Secret is known by its kind; objects listed from the API server carry no kind, so an object with
 * metadata, a string `type` and `data` or `stringData` counts as one too.
 */
function looksLikeSecret(value: JsonObject): boolean {
  if (value['kind'] === 'Secret') return true;
  if (value['kind'] !== undefined) return false;
  const hasData = isObject(value['data']) || isObject(value['stringData']);
  return hasData && isObject(value['metadata']) && typeof value['type'] === 'string';
}

/** The keys stay visible (they say what a Secret holds); the values never do. */
function redactSecret(secret: JsonObject): JsonObject {
  const copy: JsonObject = { ...secret };
  for (const field of ['data', 'stringData']) {
    const values = secret[field];
    if (isObject(values)) copy[field] = Object.fromEntries(Object.keys(values).map((k) => [k, REDACTED]));
  }
  const metadata = secret['metadata'];
  const annotations = isObject(metadata) ? metadata['annotations'] : undefined;
  if (isObject(metadata) && isObject(annotations) && LAST_APPLIED in annotations) {
    copy['metadata'] = { ...metadata, annotations: { ...annotations, [LAST_APPLIED]: REDACTED } };
  }
  return copy;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

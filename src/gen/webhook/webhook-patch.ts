import type { WebhookEntry } from './webhook-manifest.ts';

const WEBHOOK_FIELDS = [
  'name',
  'clientConfig',
  'rules',
  'failurePolicy',
  'matchPolicy',
  'namespaceSelector',
  'objectSelector',
  'sideEffects',
  'timeoutSeconds',
  'admissionReviewVersions',
  'matchConditions',
];

type JsonObject = Record<string, unknown>;

/**
 * Applies a webhook marker's `patch=` to the webhook it generated: objects merge key by key, `null`
 * removes a key, and any other value (lists included) replaces what was there. On a generated
 * webhook this is what a strategic merge patch does, since the only list with a merge key
 * (matchConditions) starts out empty. Returns the patched webhook, or why the patch is refused.
 */
export function applyWebhookPatch(
  entry: WebhookEntry,
  patch: string,
  mutating: boolean,
): WebhookEntry | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(patch);
  } catch (err) {
    return `not valid JSON (${(err as Error).message})`;
  }
  if (!isObject(parsed)) return 'must be a JSON object';
  const allowed = mutating ? [...WEBHOOK_FIELDS, 'reinvocationPolicy'] : WEBHOOK_FIELDS;
  const unknown = Object.keys(parsed).find((key) => !allowed.includes(key));
  if (unknown !== undefined) return `unknown field "${unknown}"; a webhook has ${allowed.join(', ')}`;
  const directive = findDirective(parsed);
  if (directive !== undefined)
    return `the strategic merge directive "${directive}" is not supported; write the fields as they should be`;
  return mergePatch(entry, parsed) as WebhookEntry;
}

function mergePatch(target: unknown, patch: JsonObject): JsonObject {
  const base = isObject(target) ? target : {};
  const result: JsonObject = Object.fromEntries(Object.entries(base).filter(([key]) => patch[key] !== null));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) continue;
    result[key] = isObject(value) ? mergePatch(result[key], value) : value;
  }
  return result;
}

function findDirective(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findDirective(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (key.startsWith('$')) return key;
    const found = findDirective(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

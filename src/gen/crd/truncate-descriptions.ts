import type { JSONSchemaProps } from './json-schema-props.ts';

const SENTENCE_TERMINAL = /\p{Sentence_Terminal}/u;
const WHITE_SPACE = /\p{White_Space}/u;

/**
 * Shortens every description in a schema to at most `maxLength` bytes, as controller-gen's
 * `crd:maxDescLen` does: cut at the last sentence end within the limit, else at the last space
 * (with `...`), else hard (with `...`); 0 drops descriptions, a negative limit keeps them whole. Lengths are UTF-8 bytes, as Go counts
 * them, so that both tools cut at the same place. Returns a copy.
 */
export function truncateDescriptions(schema: JSONSchemaProps, maxLength: number): JSONSchemaProps {
  if (maxLength < 0) return schema;
  const out: JSONSchemaProps = { ...schema };
  const cut =
    schema.description === undefined || maxLength === 0 ? '' : truncate(schema.description, maxLength);
  if (cut === '') delete out.description;
  else out.description = cut;
  const each = (child: JSONSchemaProps): JSONSchemaProps => truncateDescriptions(child, maxLength);
  if (schema.properties)
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, each(v)]));
  if (schema.items) out.items = each(schema.items);
  if (typeof schema.additionalProperties === 'object')
    out.additionalProperties = each(schema.additionalProperties);
  if (schema.allOf) out.allOf = schema.allOf.map(each);
  if (schema.anyOf) out.anyOf = schema.anyOf.map(each);
  return out;
}

function truncate(description: string, maxLength: number): string {
  const bytes = Buffer.from(description, 'utf8');
  if (bytes.length <= maxLength) return description;
  const kept = bytes.subarray(0, maxLength);
  const { terminal, space } = lastBoundaries(description, maxLength);
  if (terminal > 0) return goString(kept.subarray(0, terminal + 1));
  if (space > 0) return `${goString(kept.subarray(0, space))}...`;
  return `${goString(kept)}...`;
}

/**
 * Bytes cut from valid UTF-8, as Go's JSON encoder writes them in controller-gen's output: one U+FFFD
 * per byte of a character the cut split (Node would write one for the whole partial character).
 */
function goString(bytes: Buffer): string {
  let start = bytes.length - 1;
  while (start > 0 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  const lead = bytes[start] ?? 0;
  const size = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  const partial = bytes.length - start;
  if (partial >= size) return bytes.toString('utf8');
  return `${bytes.subarray(0, start).toString('utf8')}${'\ufffd'.repeat(partial)}`;
}

/** Byte offsets of the last sentence terminal and the last white space that start within the limit. */
function lastBoundaries(description: string, maxLength: number): { terminal: number; space: number } {
  let offset = 0;
  let terminal = -1;
  let space = -1;
  for (const char of description) {
    const size = Buffer.byteLength(char, 'utf8');
    if (offset + size > maxLength) break;
    if (SENTENCE_TERMINAL.test(char)) terminal = offset;
    if (WHITE_SPACE.test(char)) space = offset;
    offset += size;
  }
  return { terminal, space };
}

import type { JsonPatchOperation } from '../../src/runtime/client/patch.ts';
import type { JsonValue } from '../../src/runtime/webhook/json-diff.ts';

/**
 * Applies an RFC 6902 patch of add / remove / replace operations to a copy of `doc`, strictly: a
 * path that does not exist, or an array index out of range, throws, as the API server would.
 */
export function applyJsonPatch(doc: JsonValue, ops: readonly JsonPatchOperation[]): JsonValue {
  let root = structuredClone(doc);
  for (const op of ops) {
    if (op.op !== 'add' && op.op !== 'remove' && op.op !== 'replace')
      throw new Error(`unsupported op ${op.op}`);
    if (op.path === '') {
      if (op.op === 'remove') throw new Error('cannot remove the root');
      root = structuredClone(op.value as JsonValue);
      continue;
    }
    const tokens = op.path
      .slice(1)
      .split('/')
      .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = tokens.pop() as string;
    let parent: JsonValue = root;
    for (const token of tokens) parent = child(parent, token);
    write(parent, last, op);
  }
  return root;
}

function child(parent: JsonValue, token: string): JsonValue {
  if (Array.isArray(parent)) {
    const index = arrayIndex(token, parent.length - 1);
    return parent[index] as JsonValue;
  }
  if (typeof parent !== 'object' || parent === null || !Object.hasOwn(parent, token))
    throw new Error(`path segment "${token}" does not exist`);
  return parent[token] as JsonValue;
}

function write(parent: JsonValue, token: string, op: JsonPatchOperation): void {
  const value = 'value' in op ? structuredClone(op.value as JsonValue) : null;
  if (Array.isArray(parent)) {
    if (op.op === 'add') parent.splice(arrayIndex(token, parent.length), 0, value);
    else if (op.op === 'remove') parent.splice(arrayIndex(token, parent.length - 1), 1);
    else parent[arrayIndex(token, parent.length - 1)] = value;
    return;
  }
  if (typeof parent !== 'object' || parent === null) throw new Error(`cannot write "${token}" into a scalar`);
  if (op.op !== 'add' && !Object.hasOwn(parent, token)) throw new Error(`"${token}" does not exist`);
  if (op.op === 'remove') Reflect.deleteProperty(parent, token);
  else parent[token] = value;
}

function arrayIndex(token: string, max: number): number {
  const index = Number(token);
  if (!/^(0|[1-9][0-9]*)$/.test(token) || index > max) throw new Error(`array index "${token}" out of range`);
  return index;
}

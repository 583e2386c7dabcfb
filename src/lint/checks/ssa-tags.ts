import type { ApiTypes } from '../../gen/crd/api-types.ts';
import type { ObjectModel, TypeModel } from '../../gen/crd/type-model.ts';
import type { ParsedMarker } from '../../markers/index.ts';
import { topologyMarkers } from '../../markers/index.ts';
import type { LintCheck } from '../lint-check.ts';
import type { LintReport } from '../lint-finding.ts';
import type { ApiField } from '../linted-api.ts';
import { fieldAndTypeMarkers, resolveType } from '../resolve-type.ts';

const LIST_TYPES = ['atomic', 'set', 'map'];

/** Known types that are scalars in the schema; other known types (core objects) are objects. */
const SCALAR_KNOWN = new Set(['Quantity', 'IntOrString', 'Time', 'MicroTime', 'Duration']);

/**
 * Every list says how server-side apply merges it (+listType), a map list names its keys and
 * holds objects with those fields, and a set of objects is a warning (its merge is unreliable).
 */
export const ssaTags: LintCheck = {
  name: 'ssatags',
  help: 'every list has +listType (atomic, set or map); map lists have +listMapKey',
  enabledByDefault: true,
  configure(settings) {
    const setUsage = settings.oneOf('listTypeSetUsage', ['Warn', 'Ignore'], 'Warn');
    settings.done();
    return (api, report) => {
      for (const field of api.fields) {
        const type = resolveType(field.field.type, api.types).type;
        if (type.kind === 'array') checkList(field, type.items, api.types, setUsage, report);
      }
    };
  },
};

function checkList(
  field: ApiField,
  items: TypeModel,
  types: ApiTypes,
  setUsage: 'Warn' | 'Ignore',
  report: LintReport,
): void {
  const markers = fieldAndTypeMarkers(field, types);
  const at = field.field.location;
  const [listType] = [...markers.get(topologyMarkers.listType), ...markers.get(topologyMarkers.k8sListType)];
  if (!listType) {
    const message = `${field.path} should have a listType marker for proper Server-Side Apply behavior (atomic, set, or map)`;
    report(at, message, 'add `// +listType=atomic` above it (or set, or map with +listMapKey)');
    return;
  }
  const item = resolveType(items, types).type;
  const object = objectOf(item, types);
  const isObject = object !== undefined || (item.kind === 'known' && !SCALAR_KNOWN.has(item.name));
  if (!LIST_TYPES.includes(listType.value)) {
    report(
      listType.location,
      `${field.path} has invalid listType ${JSON.stringify(listType.value)}, must be one of: atomic, set, map`,
      'write atomic, set or map',
    );
  } else if (listType.value === 'set' && isObject && setUsage === 'Warn') {
    const message = `${field.path} with listType=set is not recommended due to Server-Side Apply compatibility issues. Consider using listType=atomic or listType=map instead`;
    report(listType.location, message, 'use +listType=atomic, or +listType=map with +listMapKey', 'warning');
  } else if (listType.value === 'map') {
    const keys = [...markers.get(topologyMarkers.listMapKey), ...markers.get(topologyMarkers.k8sListMapKey)];
    const names = object ? fieldNames(object, types) : undefined;
    checkMapList(field, keys, isObject, names, listType, report);
  }
}

function checkMapList(
  field: ApiField,
  keys: readonly ParsedMarker<string>[],
  isObject: boolean,
  names: readonly string[] | undefined,
  listType: ParsedMarker<string>,
  report: LintReport,
): void {
  if (!isObject) {
    const message = `${field.path} with listType=map can only be used for object lists, not primitive lists`;
    report(listType.location, message, 'use +listType=set or +listType=atomic');
    return;
  }
  if (keys.length === 0) {
    const message = `${field.path} with listType=map must have at least one listMapKey marker`;
    report(listType.location, message, 'add `// +listMapKey=<field of the items>` above it');
    return;
  }
  if (!names) return;
  for (const key of keys.filter((k) => !names.includes(k.value)))
    report(
      key.location,
      `${field.path} listMapKey ${JSON.stringify(key.value)} does not exist as a field in the struct`,
      `name a field of the list's items: ${names.join(', ')}`,
    );
}

/** The object a list item is, when it is one of the API's own. */
function objectOf(type: TypeModel, types: ApiTypes): ObjectModel | undefined {
  const resolved = resolveType(type, types).type;
  return resolved.kind === 'object' ? resolved.object : undefined;
}

/**
 * The field names of an object, those of the types it extends included (once, if they extend in a
 * circle); undefined when it extends a type whose fields the API does not declare (a client-node
 * type, `extends V1ContainerPort`): its keys cannot be told from a typo.
 */
function fieldNames(
  object: ObjectModel,
  types: ApiTypes,
  seen = new Set<ObjectModel>(),
): string[] | undefined {
  seen.add(object);
  const names = object.fields.map((f) => f.name);
  for (const type of object.embedded) {
    const base = objectOf(type, types);
    if (!base) return undefined;
    if (seen.has(base)) continue;
    const inherited = fieldNames(base, types, seen);
    if (!inherited) return undefined;
    names.push(...inherited);
  }
  return names;
}

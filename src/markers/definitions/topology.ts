import { valueMarker } from '../definition.ts';

const on = ['field', 'type'] as const;

/** A topology marker: one string argument, valid on fields and types. */
function topology(name: string, help: string) {
  return valueMarker({ name, targets: on, category: 'CRD processing', help }, { type: 'string' });
}

const LIST_TYPE_HELP = 'atomic, set or map';
const LIST_MAP_KEY_HELP = 'a key of a listType=map list; repeat for several';

/** Server-side-apply topology markers (`x-kubernetes-list-type` and friends), and their `k8s:` spellings. */
export const topologyMarkers = {
  listType: topology('listType', LIST_TYPE_HELP),
  listMapKey: topology('listMapKey', LIST_MAP_KEY_HELP),
  mapType: topology('mapType', 'atomic or granular'),
  structType: topology('structType', 'atomic or granular'),
  k8sListType: topology('k8s:listType', LIST_TYPE_HELP),
  k8sListMapKey: topology('k8s:listMapKey', LIST_MAP_KEY_HELP),
} as const;

import { valueMarker } from '../definition.ts';

const category = 'CRD processing';
const on = ['field', 'type'] as const;

/** Server-side-apply topology markers (`x-kubernetes-list-type` and friends). */
export const topologyMarkers = {
  listType: valueMarker(
    { name: 'listType', targets: on, category, help: 'atomic, set or map' },
    { type: 'string' },
  ),
  listMapKey: valueMarker(
    { name: 'listMapKey', targets: on, category, help: 'a key of a listType=map list; repeat for several' },
    { type: 'string' },
  ),
  mapType: valueMarker(
    { name: 'mapType', targets: on, category, help: 'atomic or granular' },
    { type: 'string' },
  ),
  structType: valueMarker(
    { name: 'structType', targets: on, category, help: 'atomic or granular' },
    { type: 'string' },
  ),
  k8sListType: valueMarker(
    { name: 'k8s:listType', targets: on, category, help: 'atomic, set or map' },
    { type: 'string' },
  ),
  k8sListMapKey: valueMarker(
    {
      name: 'k8s:listMapKey',
      targets: on,
      category,
      help: 'a key of a listType=map list; repeat for several',
    },
    { type: 'string' },
  ),
} as const;

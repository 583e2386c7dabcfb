import { topologyMarkers } from '../../markers/index.ts';
import type { MarkerSet } from '../../markers/index.ts';
import type { LintCheck } from '../lint-check.ts';
import type { ApiField } from '../linted-api.ts';
import { OPTIONAL_MARKERS } from '../presence-markers.ts';
import { fieldAndTypeMarkers, resolveType } from '../resolve-type.ts';
import type { ApiTypes } from '../../gen/crd/api-types.ts';

/** kube-api-linter's policies for the protobuf and patchStrategy tags of a Go conditions field. */
const TAG_POLICIES = ['SuggestFix', 'Warn', 'Ignore', 'Forbid'];

/** client-node's and the runtime's spellings of metav1.Condition, as the type walker names them. */
const CONDITION = 'V1Condition';

/**
 * A `conditions` field is a list of metav1.Condition, merged by type, optional, and (by
 * convention, a warning) the first field of its object. The protobuf and patchStrategy tags
 * kube-api-linter also checks have no TypeScript counterpart (CRDs take neither): their settings
 * are noted as ignored.
 */
export const conditions: LintCheck = {
  name: 'conditions',
  help: 'a `conditions` field is an optional `Condition[]` with +listType=map and +listMapKey=type',
  enabledByDefault: true,
  configure(settings) {
    const isFirstField = settings.oneOf('isFirstField', ['Warn', 'Ignore'], 'Warn');
    settings.goOnly({ useProtobuf: TAG_POLICIES, usePatchStrategy: TAG_POLICIES });
    settings.done();
    return (api, report) => {
      for (const field of api.allFields.filter((f) => f.field.name === 'conditions')) {
        const at = field.field.location;
        if (!isConditionList(field, api.types)) {
          report(
            at,
            `Conditions field in ${field.owner.name} must be a list of Condition`,
            'declare it `conditions?: Condition[]`, with Condition from the runtime',
          );
          continue;
        }
        const missing = missingMarkers(fieldAndTypeMarkers(field, api.types));
        if (missing.length > 0)
          report(
            at,
            `Conditions field in ${field.owner.name} is missing the following markers: ${missing.join(', ')}`,
            `add ${missing.map((m) => `\`// ${m}\``).join(', ')} above it`,
          );
        if (isFirstField === 'Warn' && field.owner.object.fields[0] !== field.field)
          report(
            at,
            `Conditions field in ${field.owner.name} must be the first field in the struct`,
            'move it above the other fields',
            'warning',
          );
      }
    };
  },
};

/** `Condition[]`, also through an alias or with `| null`: the schema is the same. */
function isConditionList(field: ApiField, types: ApiTypes): boolean {
  const list = resolveType(field.field.type, types).type;
  if (list.kind !== 'array') return false;
  const item = resolveType(list.items, types).type;
  return item.kind === 'known' && item.name === CONDITION;
}

function missingMarkers(markers: MarkerSet): string[] {
  const listTypes = [...markers.get(topologyMarkers.listType), ...markers.get(topologyMarkers.k8sListType)];
  const keys = [...markers.get(topologyMarkers.listMapKey), ...markers.get(topologyMarkers.k8sListMapKey)];
  const missing: string[] = [];
  if (!listTypes.some((m) => m.value === 'map')) missing.push('+listType=map');
  if (!keys.some((m) => m.value === 'type')) missing.push('+listMapKey=type');
  if (!OPTIONAL_MARKERS.some((definition) => markers.has(definition))) missing.push('+optional');
  return missing;
}

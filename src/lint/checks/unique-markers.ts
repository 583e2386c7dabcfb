import type { ParsedMarker } from '../../markers/index.ts';
import { requireKnownMarker } from '../known-marker.ts';
import type { LintCheck } from '../lint-check.ts';
import { markerHolders } from '../marker-holders.ts';
import type { SettingsReader } from '../settings-reader.ts';

/** A marker that may stand once on a declaration; with attributes, once per value of those. */
interface UniqueMarker {
  readonly identifier: string;
  readonly attributes: readonly string[];
}

const VALIDATIONS = [
  'Enum',
  'ExclusiveMaximum',
  'ExclusiveMinimum',
  'Format',
  'MaxItems',
  'MaxLength',
  'MaxProperties',
  'Maximum',
  'MinItems',
  'MinLength',
  'MinProperties',
  'Minimum',
  'MultipleOf',
  'Pattern',
  'Type',
  'UniqueItems',
];

/** kube-api-linter's default list, as far as tsoperator knows these markers. */
const DEFAULT_UNIQUE: readonly UniqueMarker[] = [
  'default',
  'kubebuilder:default',
  'kubebuilder:example',
  ...VALIDATIONS.map((name) => `kubebuilder:validation:${name}`),
  ...VALIDATIONS.map((name) => `kubebuilder:validation:items:${name}`),
  'k8s:maxItems',
  'k8s:minimum',
  'k8s:maximum',
  'k8s:listType',
  'listType',
].map((identifier) => ({ identifier, attributes: [] }));

const XVALIDATION: readonly UniqueMarker[] = [
  { identifier: 'kubebuilder:validation:XValidation', attributes: ['rule'] },
  { identifier: 'kubebuilder:validation:items:XValidation', attributes: ['rule'] },
];

export const uniqueMarkers: LintCheck = {
  name: 'uniquemarkers',
  help: 'markers that hold one value (Maximum, default, listType, ...) stand once per declaration',
  enabledByDefault: true,
  configure(settings) {
    const unique = [...DEFAULT_UNIQUE, ...XVALIDATION, ...settings.list('customMarkers').map(customMarker)];
    settings.done();
    return (api, report) => {
      for (const holder of markerHolders(api)) {
        const own = new Set(holder.own.all());
        for (const marker of unique) {
          const first = new Map<string, ParsedMarker>();
          for (const parsed of holder.all.all().filter((m) => m.definition.name === marker.identifier)) {
            const id = identity(parsed, marker.attributes);
            const earlier = first.get(id);
            if (earlier === undefined) {
              first.set(id, parsed);
              continue;
            }
            // On a field and the alias its type is, the field's marker is the one to move.
            const at = own.has(parsed) ? parsed : own.has(earlier) ? earlier : undefined;
            if (at)
              report(
                at.location,
                `${holder.what} has multiple definitions of marker ${id} when only a single definition should exist`,
                `keep one ${id}`,
              );
          }
        }
      }
    };
  },
};

function customMarker(settings: SettingsReader): UniqueMarker {
  const identifier = settings.string('identifier', '');
  const attributes = settings.stringList('attributes');
  settings.done();
  requireKnownMarker('lintersConfig.uniquemarkers.customMarkers', identifier);
  return { identifier, attributes };
}

/** The marker's identifier, with the values of `attributes` when the uniqueness is per value. */
function identity(marker: ParsedMarker, attributes: readonly string[]): string {
  if (attributes.length === 0) return marker.definition.name;
  const value =
    typeof marker.value === 'object' && marker.value !== null
      ? (marker.value as Record<string, unknown>)
      : {};
  const text = (attribute: string): string => {
    const argument = value[attribute];
    return typeof argument === 'string' ? argument : (JSON.stringify(argument) ?? '');
  };
  const parts = attributes.map((attribute) => `${attribute}=${text(attribute)}`);
  return `${marker.definition.name}:${parts.join(',')}`;
}

import type { ObjectModel, TypeModel } from '../../gen/crd/type-model.ts';
import type { LintCheck } from '../lint-check.ts';
import type { ApiObject, LintedApi } from '../linted-api.ts';
import { presenceMarkers } from '../presence-markers.ts';
import { resolveType } from '../resolve-type.ts';

/**
 * The fields of a kind's status are optional: a controller writes them bit by bit, and an object
 * is created before any of them is known. Optional means +optional, or a `?` without +required.
 */
export const statusOptional: LintCheck = {
  name: 'statusoptional',
  help: "the fields of a kind's status are optional",
  enabledByDefault: false,
  configure(settings) {
    const preferred = settings.oneOf(
      'preferredOptionalMarker',
      ['optional', 'kubebuilder:validation:Optional', 'k8s:optional'],
      'optional',
    );
    settings.done();
    return (api, report) => {
      const statuses = new Set(statusObjects(api));
      for (const field of api.fields.filter((f) => statuses.has(f.owner))) {
        const { optional, required } = presenceMarkers(field);
        if (required.length > 0)
          report(
            field.field.location,
            `status field ${JSON.stringify(field.field.name)} must be marked as optional, not required`,
            `replace the required marker with \`// +${preferred}\` and write \`${field.field.name}?:\``,
          );
        else if (optional.length === 0 && !field.field.optional)
          report(
            field.field.location,
            `status field ${JSON.stringify(field.field.name)} must be marked as optional`,
            `add \`// +${preferred}\` and write \`${field.field.name}?:\``,
          );
      }
    };
  },
};

/** The objects a kind's `status` field is, named or written in place, and those it extends. */
function statusObjects(api: LintedApi): ApiObject[] {
  return api.objects
    .filter((object) => object.isKind)
    .flatMap((kind) => {
      const status = kind.object.fields.find((field) => field.name === 'status');
      return status ? objectsOf(status.type, api, new Set()) : [];
    });
}

/** The object `type` is and the objects it extends, as kube-api-linter follows inlined structs. */
function objectsOf(type: TypeModel, api: LintedApi, seen: Set<ObjectModel>): ApiObject[] {
  const resolved = resolveType(type, api.types).type;
  if (resolved.kind !== 'object' || seen.has(resolved.object)) return [];
  seen.add(resolved.object);
  const own = api.objects.filter((o) => o.object === resolved.object);
  return [...own, ...resolved.object.embedded.flatMap((base) => objectsOf(base, api, seen))];
}

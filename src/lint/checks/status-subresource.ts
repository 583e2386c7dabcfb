import { crdMarkers } from '../../markers/index.ts';
import type { LintCheck } from '../lint-check.ts';

/**
 * A kind with a status field enables the status subresource, and one that enables it has a status
 * field: without it, status is written with the spec by any update, and controllers race users.
 */
export const statusSubresource: LintCheck = {
  name: 'statussubresource',
  help: 'a kind with `status` has +kubebuilder:subresource:status, and the other way round',
  enabledByDefault: false,
  configure(settings) {
    settings.done();
    return (api, report) => {
      for (const kind of api.objects.filter((object) => object.isKind)) {
        const hasStatus = kind.object.fields.some((field) => field.name === 'status');
        const marked = kind.markers.has(crdMarkers.statusSubresource);
        const marker = `+${crdMarkers.statusSubresource.name}`;
        if (hasStatus && !marked)
          report(
            kind.location,
            `root object type ${JSON.stringify(kind.name)} has a status field but does not have the marker "${marker}" to enable the status subresource`,
            `add \`// ${marker}\` above it`,
          );
        if (marked && !hasStatus)
          report(
            kind.location,
            `root object type ${JSON.stringify(kind.name)} is marked to enable the status subresource with marker "${marker}" but has no status field`,
            'add a `status?:` field, or remove the marker',
          );
      }
    };
  },
};

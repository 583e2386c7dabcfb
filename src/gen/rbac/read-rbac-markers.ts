import type { SourceFile } from 'ts-morph';
import type { MarkerContext } from '../../markers/collect.ts';
import { collectFreeMarkers } from '../../markers/collect-free.ts';
import { rbacMarkers } from '../../markers/definitions/rbac.ts';
import type { RbacMarker } from './rbac-marker.ts';

/** Every `+kubebuilder:rbac` marker in `files`, wherever it stands, in file and source order. */
export function readRbacMarkers(files: readonly SourceFile[], context: MarkerContext): RbacMarker[] {
  return files.flatMap((file) =>
    collectFreeMarkers(file, [rbacMarkers.rule], context)
      .get(rbacMarkers.rule)
      .map(({ value }) => ({
        groups: value.groups ?? [],
        resources: value.resources ?? [],
        resourceNames: value.resourceNames ?? [],
        verbs: value.verbs,
        urls: value.urls ?? [],
        ...(value.namespace ? { namespace: value.namespace } : {}),
        ...(value.roleName ? { roleName: value.roleName } : {}),
      })),
  );
}

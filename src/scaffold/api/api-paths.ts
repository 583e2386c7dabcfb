import { posix } from 'node:path';
import { qualifiedGroup } from '../../project/project-config.ts';
import { groupFolder, typesPath } from '../../project/types-path.ts';
import type { ProjectConfig, ResourceConfig } from '../../project/project-config.ts';
import type { ApiPaths } from './api-options.ts';

/**
 * Where a resource's files go: Kubebuilder's layout in TypeScript names. A multi-group project puts
 * controllers (and roles) under their group, as its types already are.
 */
export function apiPaths(project: ProjectConfig, resource: ResourceConfig): ApiPaths {
  const kindLower = resource.kind.toLowerCase();
  const groupDir = groupFolder(resource.group, project.multigroup);
  const types = resource.path ?? typesPath(resource, project.multigroup);
  const groupPrefix = resource.group === '' ? '' : `${resource.group}_`;
  return {
    types,
    groupVersionInfo: posix.join(posix.dirname(types), 'groupversion-info.ts'),
    controller: `src/controllers/${groupDir}${kindLower}.controller.ts`,
    controllerResources: `src/controllers/${groupDir}${kindLower}.resources.ts`,
    controllerTest: `test/controllers/${groupDir}${kindLower}.controller.test.ts`,
    // Not *.test.ts: `npm test` leaves the slower end-to-end suite to `npm run test:e2e`.
    e2eTest: `test/e2e/${groupDir}${kindLower}.e2e.ts`,
    sample: `config/samples/${groupPrefix}${resource.version}_${kindLower}.yaml`,
    rolePrefix: `config/rbac/${project.multigroup ? groupPrefix : ''}${kindLower}_`,
    crdBase: `bases/${qualifiedGroup(resource)}_${resource.plural}.yaml`,
  };
}

/** An import specifier from one project file to another (`../runtime/index.ts`). */
export function importPath(from: string, to: string): string {
  const path = posix.relative(posix.dirname(from), to);
  return path.startsWith('.') ? path : `./${path}`;
}

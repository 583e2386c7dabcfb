import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { ProjectConfig, ResourceConfig } from '../../project/project-config.ts';
import { apiPaths } from '../api/api-paths.ts';
import {
  CRD_KUSTOMIZATION,
  KIND_ROLES,
  RBAC_KUSTOMIZATION,
  SAMPLES_KUSTOMIZATION,
  crdEntry,
  roleFile,
  sampleEntry,
} from '../api/api-kustomize-entries.ts';
import { MAIN_FILE, controllerRegistration } from '../api/controller-registration.ts';
import type { ApiPaths } from '../api/api-options.ts';
import { otherVersions } from './check-deletable.ts';
import type { Removal } from './removal.ts';

/**
 * What `create api` made for the resource: its types, sample and their entries; the kind's roles
 * and CRD when this is its last version; the version's groupversion-info when no other kind is in
 * its folder; its controller, test and main.ts lines (as `on.main`, main.ts's text, names them).
 */
export async function addApiRemoval(
  removal: Removal,
  on: { readonly root: string; readonly main: string },
  project: ProjectConfig,
  resource: ResourceConfig,
): Promise<void> {
  const paths = apiPaths(project, resource);
  if (resource.api) await addTypesRemoval(removal, on.root, project, resource, paths);
  if (resource.controller) addControllerRemoval(removal, resource, paths, on.main);
}

async function addTypesRemoval(
  removal: Removal,
  root: string,
  project: ProjectConfig,
  resource: ResourceConfig,
  paths: ApiPaths,
): Promise<void> {
  removal.files.push(paths.types, paths.sample);
  removal.snippets.push({ path: SAMPLES_KUSTOMIZATION, marker: 'samples', snippet: sampleEntry(paths) });
  if (await lastInFolder(root, project, resource, paths)) removal.files.push(paths.groupVersionInfo);
  if (otherVersions(project, resource).length > 0) return;
  for (const role of KIND_ROLES) {
    const { path, entry } = roleFile(paths, role);
    removal.files.push(path);
    removal.snippets.push({ path: RBAC_KUSTOMIZATION, marker: 'rbac-roles', snippet: entry });
  }
  removal.snippets.push({ path: CRD_KUSTOMIZATION, marker: 'crd-resources', snippet: crdEntry(paths) });
  removal.outputs.push(posix.join('config/crd', paths.crdBase));
}

/**
 * True when the resource's types are the only ones of its group-version folder: no other kind of
 * PROJECT is there, nor a file of the user's (shared types still need the folder's group).
 */
async function lastInFolder(
  root: string,
  project: ProjectConfig,
  resource: ResourceConfig,
  paths: ApiPaths,
): Promise<boolean> {
  const folder = posix.dirname(paths.types);
  const shared = project.resources.some(
    (r) => r !== resource && r.api !== undefined && posix.dirname(apiPaths(project, r).types) === folder,
  );
  if (shared) return false;
  const scaffolded = new Set([posix.basename(paths.types), posix.basename(paths.groupVersionInfo)]);
  const names = await readdir(join(root, folder)).catch((): string[] => []);
  return names.every((name) => scaffolded.has(name));
}

function addControllerRemoval(
  removal: Removal,
  resource: ResourceConfig,
  paths: ApiPaths,
  main: string,
): void {
  removal.files.push(paths.controller, paths.controllerTest, paths.controllerResources, paths.e2eTest);
  const { className, importLine, registration, registrationStart } = controllerRegistration(
    resource,
    paths.controller,
    main,
  );
  removal.snippets.push(
    { path: MAIN_FILE, marker: 'imports', snippet: importLine },
    {
      path: MAIN_FILE,
      marker: 'controllers',
      snippet: registration,
      sameWhen: registrationStart,
      binding: className,
    },
  );
}

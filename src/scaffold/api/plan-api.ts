import { join } from 'node:path';
import { UsageError } from '../../errors.ts';
import type { DeployImageOptions } from '../../project/deploy-image.ts';
import { apiVersionOf, qualifiedGroup } from '../../project/project-config.ts';
import type { ProjectConfig, ResourceConfig } from '../../project/project-config.ts';
import { pluralize } from '../../project/plural.ts';
import { PROJECT_FILE, renderProjectFile } from '../../project/project-file.ts';
import { readProject } from '../read-project.ts';
import { resolveResource } from '../../project/resolve-resource.ts';
import type { Change } from '../change.ts';
import { finishPlan } from '../finish-plan.ts';
import { formatGenerated } from '../format-generated.ts';
import { licenseHeader } from '../license-header.ts';
import { templatesDir } from '../package-paths.ts';
import { renderTemplate } from '../render-template.ts';
import { PROJECT_RUNTIME_DIR } from '../runtime-files.ts';
import { StagingTree } from '../staging-tree.ts';
import type { ApiPaths, ApiTemplateData, CreateApiOptions } from './api-options.ts';
import { apiPaths, importPath } from './api-paths.ts';
import { resolveDeployImage } from './deploy-image-request.ts';
import {
  CRD_KUSTOMIZATION,
  KIND_ROLES,
  RBAC_KUSTOMIZATION,
  SAMPLES_KUSTOMIZATION,
  crdEntry,
  roleFile,
  sampleEntry,
} from './api-kustomize-entries.ts';
import { MAIN_FILE, controllerRegistration } from './controller-registration.ts';

/** The plan of `create api`, the defaults it took and how it read its names, for the command to tell. */
export interface ApiPlan {
  readonly changes: Change[];
  readonly defaultsTaken: readonly string[];
  /** How a name that reads two ways (a group named like Kubernetes' own) was read. */
  readonly readings: readonly string[];
  readonly resource: ResourceConfig;
}

/**
 * The changes `tsoperator create api` makes: the kind's types, controller (registered in main.ts),
 * controller test, sample and roles, their kustomize entries, and the resource in PROJECT.
 *
 * @example
 * ```ts
 * const { changes, defaultsTaken } = await planApi({ dir: '.', kind: 'WebApp' });
 * ```
 */
export async function planApi(options: CreateApiOptions): Promise<ApiPlan> {
  const tree = await StagingTree.open(options.dir, { force: options.force === true });
  const resolved = resolveResource(await readProject(tree), options);
  const { resource } = resolved;
  const defaultsTaken = [...resolved.defaultsTaken];
  const { options: deployImage, project } = resolveDeployImage(
    resolved.project,
    resource,
    options,
    defaultsTaken,
  );
  await tree.update(PROJECT_FILE, renderProjectFile(project));
  const paths = apiPaths(project, resource);
  if (!resource.api && !resource.external && (await tree.read(paths.types)) === undefined) {
    throw new UsageError(
      `${paths.types} does not exist, and a controller needs the kind's types: re-run without --no-resource (--resource=false) to create them`,
    );
  }
  const data = (target: string): ApiTemplateData =>
    templateData(project, resource, paths, target, deployImage);
  if (resource.api) await stageTypes(tree, paths, data);
  if (resource.controller) await stageController(tree, resource, paths, data);
  return { changes: finishPlan(tree), defaultsTaken, readings: resolved.readings, resource };
}

async function stageTypes(
  tree: StagingTree,
  paths: ApiPaths,
  data: (target: string) => ApiTemplateData,
): Promise<void> {
  await render(tree, 'groupversion-info.ts', paths.groupVersionInfo, data);
  await render(tree, variant(data, 'types.ts'), paths.types, data);
  await render(tree, variant(data, 'sample.yaml'), paths.sample, data);
  for (const role of KIND_ROLES) {
    const { path, entry } = roleFile(paths, role);
    await render(tree, `${role}_role.yaml`, path, data);
    await tree.insert(RBAC_KUSTOMIZATION, 'rbac-roles', entry);
  }
  await tree.insert(CRD_KUSTOMIZATION, 'crd-resources', crdEntry(paths));
  await tree.insert(SAMPLES_KUSTOMIZATION, 'samples', sampleEntry(paths));
}

async function stageController(
  tree: StagingTree,
  resource: ResourceConfig,
  paths: ApiPaths,
  data: (target: string) => ApiTemplateData,
): Promise<void> {
  await render(tree, variant(data, 'controller.ts'), paths.controller, data);
  await render(tree, variant(data, 'controller.test.ts'), paths.controllerTest, data);
  if (data(MAIN_FILE).deployImage) {
    await render(tree, variant(data, 'resources.ts'), paths.controllerResources, data);
    await render(tree, 'deploy-image/e2e.ts', paths.e2eTest, data);
  }
  const main = (await tree.read(MAIN_FILE)) ?? '';
  const { importLine, registration, registrationStart } = controllerRegistration(
    resource,
    paths.controller,
    main,
  );
  await tree.insert(MAIN_FILE, 'imports', importLine);
  // A registration written by an older tsoperator, in another form, is still the registration.
  await tree.insert(MAIN_FILE, 'controllers', registration, registrationStart);
}

/** The template of a kind that runs an image (`deploy-image/`), or the generic one. */
function variant(data: (target: string) => ApiTemplateData, template: string): string {
  return data(MAIN_FILE).deployImage ? `deploy-image/${template}` : template;
}

async function render(
  tree: StagingTree,
  template: string,
  target: string,
  data: (target: string) => ApiTemplateData,
): Promise<void> {
  const text = await renderTemplate(join(templatesDir('api'), `${template}.ejs`), data(target));
  await tree.generate(target, await formatGenerated(tree.root, target, text));
}

function templateData(
  project: ProjectConfig,
  resource: ResourceConfig,
  paths: ApiPaths,
  target: string,
  deployImage: DeployImageOptions | undefined,
): ApiTemplateData {
  const group = qualifiedGroup(resource);
  return {
    kind: resource.kind,
    kindLower: resource.kind.toLowerCase(),
    kindVar: resource.kind.charAt(0).toLowerCase() + resource.kind.slice(1),
    kindConstant: resource.kind.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase(),
    finalizer: `${group === '' ? resource.domain : group}/finalizer`,
    deployImage,
    plural: resource.plural,
    qualifiedGroup: group,
    version: resource.version,
    apiVersion: apiVersionOf(resource),
    namespaced: resource.api?.namespaced ?? true,
    projectName: project.projectName,
    licenseHeader: licenseHeader(project.settings),
    external: resource.external === true,
    storageVersion: !project.resources.some(
      (r) => r !== resource && r.api && r.group === resource.group && r.kind === resource.kind,
    ),
    resourceMarker: resourceMarkerArguments(resource),
    rbacGroup: group === '' ? '""' : group,
    rbacNamespace: project.settings.namespaced ? ',namespace=system' : '',
    paths,
    imp: (projectPath) =>
      importPath(target, projectPath === 'runtime' ? `${PROJECT_RUNTIME_DIR}/index.ts` : projectPath),
  };
}

/** `path=moose,scope=Cluster`: what the CRD generator cannot take from the kind's name and defaults. */
function resourceMarkerArguments(resource: ResourceConfig): string {
  const args = [
    ...(resource.plural === pluralize(resource.kind.toLowerCase()) ? [] : [`path=${resource.plural}`]),
    ...(resource.api?.namespaced === false ? ['scope=Cluster'] : []),
  ];
  return args.join(',');
}

import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { baseCsvPath, renderBaseCsv, type BaseCsvProject } from '../../bundle/base-csv.ts';
import { UsageError } from '../../errors.ts';
import { stageGrafana } from '../../grafana/stage-grafana.ts';
import { validateDomain, validateProjectName } from '../../project/name-rules.ts';
import { TSOPERATOR_LAYOUT, type ProjectConfig } from '../../project/project-config.ts';
import { PROJECT_FILE, parseProjectFile, renderProjectFile } from '../../project/project-file.ts';
import { tsoperatorVersion } from '../../version.ts';
import type { Change } from '../change.ts';
import { finishPlan } from '../finish-plan.ts';
import { licenseHeader } from '../license-header.ts';
import { runtimeSourceDir, templatesDir } from '../package-paths.ts';
import { packageVersions } from '../package-versions.ts';
import { listTemplates, renderTemplate, renderedPath } from '../render-template.ts';
import { runtimeDependencies } from '../runtime-dependencies.ts';
import { stageRuntime } from '../runtime-files.ts';
import { StagingTree } from '../staging-tree.ts';
import type { InitOptions, InitTemplateData } from './init-options.ts';

/**
 * The changes `tsoperator init` makes: PROJECT, the files of `templates/init/` and the runtime.
 * Refuses an initialised folder unless --force, which regenerates and keeps the project's resources.
 *
 * @example
 * ```ts
 * const changes = await planInit({ dir: '.', domain: 'example.org', projectName: 'demo',
 *   license: 'apache2', namespaced: false, multigroup: false, force: false });
 * ```
 */
export async function planInit(options: InitOptions): Promise<Change[]> {
  validateDomain(options.domain);
  validateProjectName(options.projectName);
  const tree = await StagingTree.open(options.dir, { force: options.force });
  const existing = await tree.read(PROJECT_FILE);
  if (existing !== undefined && !options.force) {
    throw new UsageError(
      'this folder is already a tsoperator project (it has a PROJECT file): add APIs with `tsoperator create api`, ' +
        'or re-run init with --force to regenerate its files',
    );
  }
  const version = tsoperatorVersion();
  const project = projectConfig(
    options,
    version,
    existing === undefined ? undefined : parseProjectFile(existing),
  );
  await tree.update(PROJECT_FILE, renderProjectFile(project));
  const data = await templateData({ ...options, sharded: project.settings.sharded === true }, version);
  const dir = templatesDir('init');
  for (const template of await listTemplates(dir)) {
    const content = await renderTemplate(join(dir, template), data);
    const path = renderedPath(template);
    if (growsAfterInit(path, content)) await tree.generateIfMissing(path, content);
    else await tree.generate(path, content);
  }
  // The OLM bundle's base CSV, scaffolded with the project (as operator-sdk's init scaffolds
  // config/manifests) so that its metadata is edited in version control before the first bundle.
  await tree.generateIfMissing(baseCsvPath(options.projectName), renderBaseCsv(baseCsvProject(options)));
  if (project.grafana === true) await stageGrafana(tree);
  await stageRuntime(tree, runtimeSourceDir(), version);
  return finishPlan(tree);
}

/** The manifests generator's file: init only writes its first, empty version. */
const MANIFEST_FILES: ReadonlySet<string> = new Set(['config/rbac/role.yaml']);

/**
 * Files other commands add to after init: main.ts and the kustomizations grow at their markers with
 * every API, role.yaml is the manifests generator's. Regenerating them would drop what was added.
 */
function growsAfterInit(path: string, content: string): boolean {
  return content.includes('+tsoperator:scaffold:') || MANIFEST_FILES.has(path);
}

function projectConfig(
  options: InitOptions,
  version: string,
  previous: ProjectConfig | undefined,
): ProjectConfig {
  // A re-run of init (--force) keeps what it does not set: resources, settings such as crd.maxDescLen
  // that later commands added, the deploy-image kinds.
  return {
    ...previous,
    version: '3',
    cliVersion: version,
    domain: options.domain,
    layout: [TSOPERATOR_LAYOUT],
    multigroup: options.multigroup || previous?.multigroup === true,
    projectName: options.projectName,
    resources: previous?.resources ?? [],
    settings: {
      ...previous?.settings,
      namespaced: options.namespaced,
      license: options.license,
      ...(options.owner === undefined ? {} : { owner: options.owner }),
      ...(sharded(options, previous) ? { sharded: true as const } : {}),
    },
    ...(options.plugins?.includes('grafana') || previous?.grafana === true ? { grafana: true } : {}),
  };
}

/** Sharded when asked now, or when the project was (a re-run of init with --force keeps it). */
function sharded(options: InitOptions, previous: ProjectConfig | undefined): boolean {
  return options.sharded === true || previous?.settings.sharded === true;
}

function baseCsvProject(options: InitOptions): BaseCsvProject {
  return {
    packageName: options.projectName,
    domain: options.domain,
    namespaced: options.namespaced,
    ...(options.owner === undefined ? {} : { owner: options.owner }),
  };
}

async function templateData(options: InitOptions, version: string): Promise<InitTemplateData> {
  const versions = await packageVersions(options.tsoperatorDependency);
  const hash = createHash('sha256').update(`${options.projectName}.${options.domain}`).digest('hex');
  return {
    projectName: options.projectName,
    domain: options.domain,
    owner: options.owner,
    license: options.license,
    namespaced: options.namespaced,
    sharded: options.sharded === true,
    licenseHeader: licenseHeader(options),
    tsoperatorVersion: version,
    versions,
    dependencies: await runtimeDependencies(runtimeSourceDir(), versions),
    leaderElectionId: `${hash.slice(0, 8)}.${options.domain}`,
  };
}

import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import type { ImageReference } from '../deploy/image-reference.ts';
import { kustomizeBuild, kustomizeFolder } from '../deploy/kustomize-build.ts';
import { isManifestObject, type ManifestObject } from '../deploy/manifest-object.ts';
import { TsoperatorError, UsageError } from '../errors.ts';
import { writeYaml } from '../gen/yaml/write-yaml.ts';
import type { YamlValue } from '../gen/yaml/yaml-value.ts';
import { dns1123LabelProblems } from '../project/dns.ts';
import { TSOPERATOR_LAYOUT, type ProjectConfig } from '../project/project-config.ts';
import { PROJECT_FILE, parseProjectFile } from '../project/project-file.ts';
import type { Change } from '../scaffold/change.ts';
import { finishPlan } from '../scaffold/finish-plan.ts';
import { StagingTree } from '../scaffold/staging-tree.ts';
import { tsoperatorVersion } from '../version.ts';
import { baseCsvPath, parseBaseCsv, renderBaseCsv, type CsvDocument } from './base-csv.ts';
import { parseBundleChannels } from './bundle-channels.ts';
import { bundleManifests } from './bundle-manifests.ts';
import {
  ANNOTATIONS_PATH,
  BUNDLE_DIR,
  BUNDLE_DOCKERFILE,
  renderAnnotations,
  renderBundleDockerfile,
} from './bundle-metadata.ts';
import { parseBundleVersion } from './bundle-version.ts';
import { buildClusterServiceVersion } from './cluster-service-version.ts';
import { checkConversionInstallModes } from './conversion-install-modes.ts';

export interface BundleOptions {
  /** The project's root folder. */
  readonly dir: string;
  /** A semantic version: the CSV's `spec.version`. */
  readonly version: string;
  /** Comma-separated channel names. Default: 'alpha', as operator-sdk's. */
  readonly channels?: string;
  readonly defaultChannel?: string;
  /** The OLM package. Default: the project's name. */
  readonly packageName?: string;
  /** The manager's image, in the CSV's Deployment. */
  readonly image: ImageReference;
  /** Default: 'kubectl'. */
  readonly kubectl?: string;
}

export interface BundlePlan {
  readonly changes: Change[];
  /** `Kind/name` of config/default's objects a bundle cannot carry (the Namespace, cert-manager's). */
  readonly leftOut: readonly string[];
}

const MANIFESTS_DIR = `${BUNDLE_DIR}/manifests`;

/**
 * The changes `tsoperator generate bundle` makes: bundle/manifests (the CSV built from the base CSV
 * and config/default, the CRDs and the other objects OLM installs from a bundle),
 * bundle/metadata/annotations.yaml and bundle.Dockerfile, as operator-sdk lays them out. The base
 * CSV is written first when the project has none (projects made before init scaffolded it).
 *
 * @example
 * ```ts
 * const plan = await planBundle({ dir: '.', version: '0.1.0', image: { name: 'ghcr.io/acme/op', tag: 'v0.1.0' } });
 * ```
 */
export async function planBundle(options: BundleOptions): Promise<BundlePlan> {
  const version = parseBundleVersion(options.version);
  const channels = parseBundleChannels(options.channels ?? 'alpha', options.defaultChannel);
  const tree = await StagingTree.open(options.dir);
  const project = await readProject(tree);
  const packageName = packageNameOf(options.packageName ?? project.projectName);
  const base = await stageBaseCsv(tree, project, packageName);
  const kubectl = options.kubectl ?? 'kubectl';
  const objects = manifestObjects(await kustomizeBuild({ dir: options.dir, image: options.image, kubectl }));
  const builder = `tsoperator-v${tsoperatorVersion()}`;
  const { csv, folded } = buildClusterServiceVersion({
    base,
    packageName,
    version,
    objects,
    samples: await sampleObjects(tree, kubectl),
    annotations: {
      'operators.operatorframework.io/builder': builder,
      'operators.operatorframework.io/project_layout': TSOPERATOR_LAYOUT,
    },
  });
  checkConversionInstallModes(csv, baseCsvPath(packageName));
  const manifests = bundleManifests(objects, folded);
  await stageManifests(tree, `${packageName}.clusterserviceversion.yaml`, csv, manifests.files);
  const metadata = { ...channels, packageName, builder, layout: TSOPERATOR_LAYOUT };
  await tree.generate(ANNOTATIONS_PATH, renderAnnotations(metadata), true);
  await tree.generate(BUNDLE_DOCKERFILE, renderBundleDockerfile(metadata), true);
  return { changes: finishPlan(tree), leftOut: manifests.leftOut };
}

function packageNameOf(name: string): string {
  const problems = dns1123LabelProblems(name);
  if (problems.length > 0)
    throw new UsageError(`--package "${name}" is not a package name: it ${problems.join(' and ')}`);
  return name;
}

/** The user's base CSV, written first when the project has none. */
async function stageBaseCsv(
  tree: StagingTree,
  project: ProjectConfig,
  packageName: string,
): Promise<CsvDocument> {
  const path = baseCsvPath(packageName);
  const text =
    (await tree.read(path)) ??
    renderBaseCsv({
      packageName,
      domain: project.domain,
      namespaced: project.settings.namespaced,
      ...owner(project),
    });
  await tree.generateIfMissing(path, text);
  return parseBaseCsv(text, path);
}

/** bundle/manifests: the CSV and the other objects, and no file a previous run wrote and this one does not. */
async function stageManifests(
  tree: StagingTree,
  csvName: string,
  csv: CsvDocument,
  files: ReadonlyMap<string, ManifestObject>,
): Promise<void> {
  const csvPath = `${MANIFESTS_DIR}/${csvName}`;
  const written = new Set<string>([csvPath]);
  await tree.generate(csvPath, csvText(csv, await tree.read(csvPath)), true);
  for (const [name, object] of files) {
    written.add(`${MANIFESTS_DIR}/${name}`);
    await tree.generate(`${MANIFESTS_DIR}/${name}`, writeYaml(object as YamlValue), true);
  }
  for (const stale of tree.generatedPaths(`${MANIFESTS_DIR}/`))
    if (!written.has(stale)) await tree.remove(stale);
}

async function readProject(tree: StagingTree): Promise<ProjectConfig> {
  const text = await tree.read(PROJECT_FILE);
  if (text === undefined) {
    throw new TsoperatorError(
      'no PROJECT file here: run generate bundle in the root of a tsoperator project',
    );
  }
  return parseProjectFile(text);
}

function owner(project: ProjectConfig): { owner?: string } {
  return project.settings.owner === undefined ? {} : { owner: project.settings.owner };
}

function manifestObjects(yaml: string): ManifestObject[] {
  return loadAll(yaml).filter(isManifestObject);
}

/** config/samples built, or none when the project has no samples folder. */
async function sampleObjects(tree: StagingTree, kubectl: string): Promise<ManifestObject[]> {
  if ((await tree.read('config/samples/kustomization.yaml')) === undefined) return [];
  return manifestObjects(
    await kustomizeFolder(kubectl, join(tree.root, 'config', 'samples'), 'config/samples'),
  );
}

/**
 * The CSV's text. Its `createdAt` is the time of the last change, so that a rerun over an unchanged
 * project writes the same bytes: the previous bundle's stamp is kept when all else is equal.
 * `SOURCE_DATE_EPOCH` sets the time of a change, for bundles built reproducibly.
 */
function csvText(csv: CsvDocument, previous: string | undefined): string {
  const stamped = (createdAt: string): string =>
    writeYaml({
      ...csv,
      metadata: { ...csv.metadata, annotations: { ...csv.metadata.annotations, createdAt } },
    } as YamlValue);
  const previousStamp = previous?.match(/^ {4}createdAt: ["']?([^"'\n]+)["']?$/m)?.[1];
  if (previousStamp !== undefined && stamped(previousStamp) === previous) return previous;
  return stamped(
    buildTime()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z'),
  );
}

/** Now, or the reproducible-builds convention's `SOURCE_DATE_EPOCH` (seconds) when it is set. */
function buildTime(): Date {
  const epoch = process.env['SOURCE_DATE_EPOCH'];
  if (epoch === undefined || epoch === '') return new Date();
  if (!/^\d+$/.test(epoch))
    throw new UsageError(
      `SOURCE_DATE_EPOCH=${epoch} is not a number of seconds since 1970: unset it or fix it`,
    );
  return new Date(Number(epoch) * 1000);
}

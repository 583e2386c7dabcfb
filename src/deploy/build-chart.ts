import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { load, loadAll } from 'js-yaml';
import { TsoperatorError } from '../errors.ts';
import type { ProjectConfig } from '../project/project-config.ts';
import { PROJECT_FILE, parseProjectFile } from '../project/project-file.ts';
import { applyWrites } from '../scaffold/apply.ts';
import type { FileWrite } from '../scaffold/change.ts';
import { helmChart } from './helm-chart.ts';
import type { ImageReference } from './image-reference.ts';
import { kustomizeBuild } from './kustomize-build.ts';
import { isManifestObject } from './manifest-object.ts';

/** Where `npm run build-chart` writes: beside the installer (see INSTALLER_PATH), not in dist/. */
export const CHART_DIR = 'deploy/chart';

export interface BuildChartOptions {
  /** The project's root folder. */
  readonly dir: string;
  readonly image: ImageReference;
  /** Default: CHART_DIR, relative to `dir`. */
  readonly output?: string;
  /** Default: 'kubectl'. */
  readonly kubectl?: string;
}

/**
 * Writes a Helm chart of config/default (built with the manager's image set) into `output`,
 * replacing the templates of a previous build, all files or none. Returns the paths written.
 *
 * @example
 * ```ts
 * await buildChart({ dir: '.', image: { name: 'ghcr.io/acme/op', tag: 'v1' } });
 * ```
 */
export async function buildChart(options: BuildChartOptions): Promise<string[]> {
  const output = options.output ?? CHART_DIR;
  const listed = await defaultResources(options.dir);
  const also: string[] = [];
  for (const folder of OPTIONAL_FOLDERS) {
    if (!listed.includes(`../${folder}`) && (await isFolder(join(options.dir, 'config', folder))))
      also.push(folder);
  }
  const objects = loadAll(await kustomizeBuild({ ...options, also })).filter(isManifestObject);
  const files = helmChart({
    name: (await readProject(options.dir)).projectName,
    version: await packageVersion(options.dir),
    objects,
    image: options.image,
    components: {
      prometheus: listed.includes('../prometheus'),
      networkPolicy: listed.includes('../network-policy'),
    },
  });
  const written = files.map((file) => ({ path: `${output}/${file.path}`, content: file.content }));
  const stale = (await previousTemplates(options.dir, output)).filter(
    (path) => !written.some((file) => file.path === path),
  );
  const writes: FileWrite[] = [...written, ...stale.map((path) => ({ path, removed: true as const }))];
  await applyWrites(options.dir, writes);
  return written.map((file) => file.path);
}

/**
 * The folders of config/ that config/default offers commented out: the chart holds their objects
 * either way, behind the `prometheus` and `networkPolicy` switches.
 */
const OPTIONAL_FOLDERS = ['prometheus', 'network-policy'] as const;

/** The `resources` config/default lists. */
async function defaultResources(dir: string): Promise<string[]> {
  const kustomization = load(
    await readFile(join(dir, 'config', 'default', 'kustomization.yaml'), 'utf8'),
  ) as {
    resources?: unknown;
  } | null;
  const resources = kustomization?.resources;
  return Array.isArray(resources) ? resources.filter((r): r is string => typeof r === 'string') : [];
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function readProject(dir: string): Promise<ProjectConfig> {
  try {
    return parseProjectFile(await readFile(join(dir, PROJECT_FILE), 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new TsoperatorError('no PROJECT file here: run build-chart in the root of a tsoperator project');
  }
}

async function packageVersion(dir: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : '0.1.0';
}

/** The templates a previous build wrote, so that an object gone from config/ leaves the chart. */
async function previousTemplates(dir: string, output: string): Promise<string[]> {
  try {
    const names = await readdir(join(dir, output, 'templates'));
    return names.filter((name) => name.endsWith('.yaml')).map((name) => `${output}/templates/${name}`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

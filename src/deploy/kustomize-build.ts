import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { execa, ExecaError } from 'execa';
import { dump, load } from 'js-yaml';
import { TsoperatorError } from '../errors.ts';
import type { ImageReference } from './image-reference.ts';

/** The placeholder image config/manager's Deployment runs, as in Kubebuilder projects. */
export const PLACEHOLDER_IMAGE = 'controller';

export interface KustomizeBuildOptions {
  /** The project's root folder. */
  readonly dir: string;
  /** The manager's image, replacing the placeholder `controller`. */
  readonly image: ImageReference;
  /** The kubectl whose built-in kustomize builds config/default. Default: 'kubectl'. */
  readonly kubectl?: string;
  /**
   * Folders of config/ to build beside config/default, with its namespace, name prefix and labels,
   * as if it listed them (`prometheus`, `network-policy`). Default: none.
   */
  readonly also?: readonly string[];
}

/**
 * Builds the project's config/default with the manager's image set, as `kustomize edit set image`
 * then `kustomize build` do, but without editing config/manager: the image goes into an overlay in
 * a temporary folder. kustomize refuses absolute paths to bases, hence the relative one.
 *
 * @example
 * ```ts
 * const yaml = await kustomizeBuild({ dir: '.', image: { name: 'ghcr.io/acme/op', tag: 'v1' } });
 * ```
 */
export async function kustomizeBuild(options: KustomizeBuildOptions): Promise<string> {
  const overlay = await mkdtemp(join(tmpdir(), 'tsoperator-kustomize-'));
  try {
    const also = options.also ?? [];
    if (also.length > 0) await writeAlso(options.dir, join(overlay, 'also'), also);
    const kustomization = {
      resources: [
        relative(overlay, join(options.dir, 'config', 'default')),
        ...(also.length > 0 ? ['also'] : []),
      ],
      images: [imageEntry(options.image)],
    };
    await writeFile(join(overlay, 'kustomization.yaml'), dump(kustomization));
    return await runKustomize(options.kubectl ?? 'kubectl', overlay, 'config/default');
  } finally {
    await rm(overlay, { recursive: true, force: true });
  }
}

/** What config/default applies to every object it builds, applied here to the `also` folders. */
const SHARED_FIELDS = [
  'namespace',
  'namePrefix',
  'nameSuffix',
  'labels',
  'commonLabels',
  'commonAnnotations',
];

async function writeAlso(dir: string, folder: string, also: readonly string[]): Promise<void> {
  const defaults = load(await readFile(join(dir, 'config', 'default', 'kustomization.yaml'), 'utf8'));
  const shared = Object.entries(defaults ?? {}).filter(([key]) => SHARED_FIELDS.includes(key));
  const kustomization = {
    ...Object.fromEntries(shared),
    resources: also.map((name) => relative(folder, join(dir, 'config', name))),
  };
  await mkdir(folder);
  await writeFile(join(folder, 'kustomization.yaml'), dump(kustomization));
}

function imageEntry(image: ImageReference): Record<string, string> {
  return {
    name: PLACEHOLDER_IMAGE,
    newName: image.name,
    ...(image.tag === undefined ? {} : { newTag: image.tag }),
    ...(image.digest === undefined ? {} : { digest: image.digest }),
  };
}

/** Builds one folder of config/ as it stands (config/samples); `what` names it in errors. */
export function kustomizeFolder(kubectl: string, folder: string, what: string): Promise<string> {
  return runKustomize(kubectl, folder, what);
}

async function runKustomize(kubectl: string, folder: string, what: string): Promise<string> {
  try {
    return (await execa(kubectl, ['kustomize', folder])).stdout + '\n';
  } catch (err) {
    if (err instanceof ExecaError && err.code === 'ENOENT') {
      throw new TsoperatorError(
        `${kubectl} was not found: install kubectl (its built-in kustomize builds config/), or name one with --kubectl`,
      );
    }
    const detail = err instanceof ExecaError ? err.stderr : String(err);
    throw new TsoperatorError(`kustomize could not build ${what}:\n${detail}`, { cause: err });
  }
}

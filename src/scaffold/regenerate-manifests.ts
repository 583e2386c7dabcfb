import { TsoperatorError, isTsoperatorError } from '../errors.ts';
import type { ManifestFile } from '../gen/manifest-generator.ts';
import { generateManifests } from '../gen/manifests.ts';
import { applyWrites } from './apply.ts';
import { fileWrites, type Change } from './change.ts';
import { StagingTree } from './staging-tree.ts';

export interface RegenerateOptions {
  /** The description limit to write with, ahead of PROJECT (for a dry run of a change to it). */
  readonly maxDescLen?: number;
  /** Only say what would change. Default: false. */
  readonly dryRun?: boolean;
}

/**
 * Regenerates the project's manifests (CRDs, RBAC) from its types and markers, as `create api`
 * does at its end so that the new kind's CRD exists before its controller test runs. Written all
 * at once, like a scaffold; with `dryRun`, nothing is written and the changes say what would be.
 */
export async function regenerateManifests(root: string, options: RegenerateOptions = {}): Promise<Change[]> {
  let files: ManifestFile[];
  try {
    files = generateManifests({ root, maxDescLen: options.maxDescLen });
  } catch (err) {
    if (!isTsoperatorError(err)) throw err;
    throw new TsoperatorError(
      `the files were scaffolded, but the manifests could not be regenerated:\n${err.message}\n` +
        'Fix the problems above, then run `tsoperator manifests`.',
      { cause: err },
    );
  }
  const tree = await StagingTree.open(root);
  for (const file of files) await tree.update(file.path, file.content);
  const changes = tree.changes();
  if (options.dryRun !== true) await applyWrites(root, fileWrites(changes));
  return changes;
}

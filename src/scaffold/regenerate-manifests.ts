import { TsoperatorError, isTsoperatorError } from '../errors.ts';
import type { ManifestFile } from '../gen/manifest-generator.ts';
import { generateManifests } from '../gen/manifests.ts';
import { applyWrites } from './apply.ts';
import { fileWrites, type Change } from './change.ts';
import { StagingTree } from './staging-tree.ts';

/**
 * Regenerates the project's manifests (CRDs, RBAC) from its types and markers, as `create api`
 * does at its end so that the new kind's CRD exists before its controller test runs. Written all
 * at once, like a scaffold.
 */
export async function regenerateManifests(root: string): Promise<Change[]> {
  let files: ManifestFile[];
  try {
    files = generateManifests({ root });
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
  await applyWrites(root, fileWrites(changes));
  return changes;
}

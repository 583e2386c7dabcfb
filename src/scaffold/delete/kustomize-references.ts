import { join, posix } from 'node:path';
import { load } from 'js-yaml';
import type { StagingTree } from '../staging-tree.ts';
import { folderFiles } from '../update/folder-files.ts';

const CONFIG_FOLDER = 'config';
const KUSTOMIZATION_NAMES: ReadonlySet<string> = new Set([
  'kustomization.yaml',
  'kustomization.yml',
  'Kustomization',
]);
/** The fields of a kustomization that name files kustomize reads. */
const FILE_LISTS = ['resources', 'patches', 'patchesStrategicMerge', 'configurations'] as const;

/**
 * The entries of the kustomizations that stay which point at a file in `deleted`, as
 * `config/samples/kustomization.yaml: ./crew_v1_admiral.yaml`: entries the scaffold's lines did not
 * match (quoted, with `./`, a patch's `path`), with which kustomize would fail.
 */
export async function deletedReferences(tree: StagingTree, deleted: ReadonlySet<string>): Promise<string[]> {
  const found: string[] = [];
  for (const name of await folderFiles(join(tree.root, CONFIG_FOLDER))) {
    if (!KUSTOMIZATION_NAMES.has(posix.basename(name))) continue;
    const path = `${CONFIG_FOLDER}/${name}`;
    const text = await tree.read(path);
    if (text === undefined) continue;
    for (const entry of fileEntries(text)) {
      if (deleted.has(posix.join(posix.dirname(path), entry))) found.push(`${path}: ${entry}`);
    }
  }
  return found;
}

/** The file paths a kustomization lists, as written; none when it does not parse. */
function fileEntries(text: string): string[] {
  let document: unknown;
  try {
    document = load(text);
  } catch {
    return [];
  }
  if (typeof document !== 'object' || document === null) return [];
  const fields = document as Record<string, unknown>;
  return FILE_LISTS.flatMap((field) => {
    const list = fields[field];
    return Array.isArray(list) ? list.map(entryPath).filter((entry) => entry !== undefined) : [];
  });
}

/** A list item's path: the string itself, or a patch's `path`. */
function entryPath(item: unknown): string | undefined {
  if (typeof item === 'string') return item;
  if (typeof item !== 'object' || item === null) return undefined;
  const path = (item as Record<string, unknown>)['path'];
  return typeof path === 'string' ? path : undefined;
}

import { join, posix } from 'node:path';
import { TsoperatorError } from '../../errors.ts';
import type { StagingTree } from '../staging-tree.ts';
import { folderFiles } from '../update/folder-files.ts';
import { deletedReferences } from './kustomize-references.ts';

/** The project's TypeScript folders; src/runtime is tsoperator's and imports no project file. */
const SOURCE_FOLDERS = ['src', 'test'] as const;
const RUNTIME_FOLDER = 'src/runtime/';

/** The relative module specifier of an import, an export-from or a dynamic import. */
const RELATIVE_SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.\.?\/[^'"]+)['"]/g;

/**
 * Refuses a deletion that would leave a file importing a file it deletes, or a kustomization that
 * stays listing one: the project would no longer build, nor kustomize its config. Such an import is
 * the user's code using the kind (a helper, another kind's controller or test), or a main.ts line
 * tsoperator did not find as it wrote it (reformatted); such an entry is one the user respelled.
 * Refused rather than rewritten, as for the imports: tsoperator only takes out lines it wrote.
 */
export async function checkNoImporters(tree: StagingTree, deleted: ReadonlySet<string>): Promise<void> {
  const imports = await deletedImports(tree, deleted);
  const entries = await deletedReferences(tree, deleted);
  const problems = [
    ...(imports.length === 0
      ? []
      : [
          `files that stay import files it would delete, so the project would not build: ${imports.join('; ')}. ` +
            'Take those imports (and the code that uses them) out first',
        ]),
    ...(entries.length === 0
      ? []
      : [
          `kustomizations that stay list files it would delete, so kustomize would fail on them: ${entries.join('; ')}. ` +
            'Take those entries out first',
        ]),
  ];
  if (problems.length === 0) return;
  throw new TsoperatorError(
    `nothing was deleted: ${problems.join('. ')}; then run \`tsoperator delete api\` again.`,
  );
}

/** `src/x.ts imports src/api/v1/captain.types.ts`: each import of a deleted file by one that stays. */
async function deletedImports(tree: StagingTree, deleted: ReadonlySet<string>): Promise<string[]> {
  const found: string[] = [];
  for (const path of await sourcePaths(tree.root)) {
    const text = await tree.read(path);
    if (text === undefined) continue;
    for (const target of relativeImports(path, text)) {
      if (deleted.has(target)) found.push(`${path} imports ${target}`);
    }
  }
  return found;
}

/** The project's TypeScript files on disk, tsoperator's runtime aside. */
async function sourcePaths(root: string): Promise<string[]> {
  const paths: string[] = [];
  for (const folder of SOURCE_FOLDERS) {
    for (const path of await folderFiles(join(root, folder))) paths.push(`${folder}/${path}`);
  }
  return paths.filter((path) => path.endsWith('.ts') && !path.startsWith(RUNTIME_FOLDER));
}

/** The project paths `text`, the file at `path`, imports by relative specifiers. */
function relativeImports(path: string, text: string): string[] {
  return [...text.matchAll(RELATIVE_SPECIFIER)].map((match) =>
    posix.join(posix.dirname(path), match[1] ?? ''),
  );
}

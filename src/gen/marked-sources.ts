import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { SourceFile } from 'ts-morph';
import { Project } from 'ts-morph';

/** Where a project's own code lives; its copy of the runtime library holds no markers of the user's. */
const SOURCE_DIR = 'src';
const RUNTIME_DIR = join(SOURCE_DIR, 'runtime');

/**
 * The project's `.ts` files under `src/` (tests, declarations and the runtime copy aside) whose text
 * mentions one of `needles`, parsed. Files without them are never parsed, which keeps generators
 * that look for a few markers (rbac, webhook) cheap on large projects.
 */
export function sourcesMentioning(root: string, needles: readonly string[]): SourceFile[] {
  const project = new Project({
    useInMemoryFileSystem: false,
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
  });
  const files: SourceFile[] = [];
  for (const path of sourceFiles(root, join(root, SOURCE_DIR))) {
    const text = readFileSync(path, 'utf8');
    if (needles.some((needle) => text.includes(needle)))
      files.push(project.createSourceFile(path, text, { overwrite: true }));
  }
  return files;
}

/** The path of a source file as diagnostics show it: relative to the root, with `/`. */
export function displayPath(root: string, file: SourceFile): string {
  return relative(root, file.getFilePath()).split(sep).join('/');
}

function sourceFiles(root: string, dir: string): string[] {
  if (!existsSync(dir) || relative(root, dir) === RUNTIME_DIR) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(root, path);
      return isSourceFile(name) ? [path] : [];
    });
}

function isSourceFile(name: string): boolean {
  return name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts');
}

import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** VitePress's code snippet, `<<< @/path#region{lines lang} [title]`: the path and the region. */
const SNIPPET = /^\s*<<<\s*([^\s#{[]+)(?:#([\w*-]+))?/;
/** VitePress's markdown include, `<!--@include: path#region{lines}-->`. */
const INCLUDE = /<!--\s*@include:\s*([^\s#{]+?)(?:#([\w*-]+))?(?:\{[^}]*\})?\s*-->/g;

/**
 * The includes of the book's pages that VitePress renders wrong without failing the build: a
 * snippet of a folder shows "Invalid code snippet option", a missing region shows the whole file,
 * and a markdown include of a missing file shows nothing. (A snippet of a missing file fails the
 * build itself.) Each as `<page>:<line>: <what>`.
 */
export async function includeProblems(docs: string): Promise<string[]> {
  const problems: string[] = [];
  for (const page of await markdownPages(docs)) {
    const lines = (await readFile(page, 'utf8')).split('\n');
    let fence: string | undefined;
    lines.forEach((line, index) => {
      // A snippet shown inside a code block, as on the page that explains them, is only text.
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (marker && (fence === undefined || (marker[0] === fence[0] && marker.length >= fence.length))) {
        fence = fence === undefined ? marker : undefined;
      }
      if (fence !== undefined || marker) return;
      const where = `${relative(docs, page)}:${index + 1}`;
      const snippet = SNIPPET.exec(line);
      const targets = snippet ? [snippet] : [...line.matchAll(INCLUDE)];
      for (const [, path = '', region] of targets) {
        const file = path.startsWith('@/') ? join(docs, path.slice(2)) : join(dirname(page), path);
        const problem = targetProblem(file, region);
        if (problem) problems.push(`${where}: ${path}${region ? `#${region}` : ''} ${problem}`);
      }
    });
  }
  return problems;
}

function targetProblem(file: string, region: string | undefined): string | undefined {
  if (!existsSync(file)) return 'is missing';
  if (!statSync(file).isFile()) return 'is no file';
  if (region === undefined) return undefined;
  return hasRegion(file, region) ? undefined : 'names a region the file does not mark';
}

/** Whether the file marks `#region name` (`// #region`, `# region`, `<!-- #region -->` ...). */
function hasRegion(file: string, region: string): boolean {
  const name = region.replace(/\*/g, '\\*');
  const start = new RegExp(`^\\s*(//|/\\*|#|<!--|#pragma|::#)\\s?#?[rR]egion ${name}(\\s|-->|\\*/|$)`, 'm');
  return start.test(readFileSync(file, 'utf8'));
}

/** The book's pages, outside VitePress's own folder. */
async function markdownPages(docs: string): Promise<string[]> {
  const files: string[] = await readdir(docs, { recursive: true });
  return files
    .filter(
      (file) =>
        file.endsWith('.md') &&
        !file.split(sep).some((part) => part.startsWith('.') || part === 'node_modules'),
    )
    .map((file) => join(docs, file))
    .sort();
}

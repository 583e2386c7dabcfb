import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ejs from 'ejs';

/** Template files end in this; the rest of the name is the file they render. */
const TEMPLATE_SUFFIX = '.ejs';

/**
 * Renders one ejs template file with `data`. Templates use `<%= %>` only for text that is not HTML,
 * so escaping is off.
 *
 * @example
 * ```ts
 * const text = await renderTemplate('templates/init/README.md.ejs', { projectName: 'demo' });
 * ```
 */
export async function renderTemplate(file: string, data: object): Promise<string> {
  const template = await readFile(file, 'utf8');
  return ejs.render(template, data, { filename: file, escape: (text: string) => text, async: false });
}

/** The template files under `dir`, relative to it with '/' separators, sorted. */
export async function listTemplates(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(TEMPLATE_SUFFIX))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/**
 * The file a template renders: the name without `.ejs`, each leading `_` of a path part turned into
 * a dot. Dotfiles are stored that way because npm leaves `.gitignore` out of packages.
 */
export function renderedPath(templatePath: string): string {
  return templatePath
    .slice(0, -TEMPLATE_SUFFIX.length)
    .split('/')
    .map((part) => (part.startsWith('_') ? `.${part.slice(1)}` : part))
    .join('/');
}

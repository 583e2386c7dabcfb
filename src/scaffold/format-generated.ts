import { join } from 'node:path';

/**
 * Formats a generated TypeScript file with the project's own Prettier configuration, so that it
 * passes the project's `prettier --check` however long the names rendered into it are (a kind's
 * name ends up in signatures and calls). Other files are returned as they are.
 *
 * @example
 * ```ts
 * const text = await formatGenerated('.', 'src/controllers/webapp.controller.ts', rendered);
 * ```
 */
export async function formatGenerated(projectDir: string, path: string, text: string): Promise<string> {
  if (!path.endsWith('.ts')) return text;
  // Loaded when a scaffold writes TypeScript, not by every command.
  const prettier = await import('prettier');
  const filepath = join(projectDir, path);
  const config = await prettier.resolveConfig(filepath, { editorconfig: true });
  return prettier.format(text, { ...config, filepath });
}

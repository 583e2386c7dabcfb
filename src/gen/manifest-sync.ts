import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ManifestFile } from './manifest-generator.ts';
import { TsoperatorError } from '../errors.ts';
import { unifiedDiff } from './unified-diff.ts';

/** A generated file against what is on disk. */
export interface ManifestChange {
  readonly path: string;
  readonly status: 'create' | 'update' | 'unchanged';
  /** Unified diff from the file on disk to the generated one; '' when unchanged. */
  readonly diff: string;
}

/** Compares generated files with those under `dir` without writing anything. */
export function compareManifests(dir: string, files: readonly ManifestFile[]): ManifestChange[] {
  return files.map((file) => {
    const target = join(dir, file.path);
    const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    if (current === file.content) return { path: file.path, status: 'unchanged', diff: '' };
    return {
      path: file.path,
      status: current === undefined ? 'create' : 'update',
      diff: unifiedDiff(file.path, current ?? '', file.content),
    };
  });
}

/** Writes the files that changed under `dir`, creating folders as needed; returns what it compared. */
export function writeManifests(dir: string, files: readonly ManifestFile[]): ManifestChange[] {
  const changes = compareManifests(dir, files);
  for (const change of changes.filter((c) => c.status !== 'unchanged')) {
    const file = files.find((f) => f.path === change.path);
    const target = join(dir, change.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file?.content ?? '');
  }
  return changes;
}

/**
 * The error `--check` ends with when generated files differ from those on disk; its message says
 * what to run. Undefined when everything is current.
 */
export function staleManifestsError(changes: readonly ManifestChange[]): TsoperatorError | undefined {
  const stale = changes.filter((c) => c.status !== 'unchanged');
  if (stale.length === 0) return undefined;
  const list = stale
    .map((c) => `  ${c.path} (${c.status === 'create' ? 'missing' : 'out of date'})`)
    .join('\n');
  return new TsoperatorError(
    `${stale.length} generated manifest${stale.length === 1 ? ' is' : 's are'} stale:\n${list}\n` +
      'Run `tsoperator manifests` and commit the result.',
  );
}

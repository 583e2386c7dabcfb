import { TsoperatorError } from '../errors.ts';
import type { BaselineRequest } from '../gen/compat/index.ts';
import type { ManifestChange } from '../gen/manifest-sync.ts';
import type { ManifestFile } from '../gen/manifest-generator.ts';
import type { SchemaSites } from '../gen/crd/schema-site.ts';
import type { ServerTarget } from '../gen/server-check/check-on-server.ts';
import type { Diagnostic } from '../markers/index.ts';
import { DiagnosticsError } from '../markers/index.ts';

export interface ManifestsCheckOptions {
  readonly root: string;
  readonly files: readonly ManifestFile[];
  /** The generated files against those on disk. */
  readonly changes: readonly ManifestChange[];
  readonly baseline: BaselineRequest;
  readonly configPath?: string;
  readonly format: 'text' | 'json';
  /** `--server-dry-run`: the API server to ask, and where each CRD's schema came from. */
  readonly server?: { readonly target: ServerTarget; readonly schemaSites: ReadonlyMap<string, SchemaSites> };
}

/**
 * `manifests --check`: the stale files' diffs, then the CRDs' compatibility with their baseline;
 * throws one error naming both problems when there are any. In json mode stdout holds the JSON
 * document alone, so the diffs go to stderr.
 */
export async function runManifestsCheck(options: ManifestsCheckOptions): Promise<void> {
  const { staleManifestsError } = await import('../gen/manifest-sync.ts');
  const compat = await import('../gen/compat/index.ts');
  const diffs = options.changes.map((change) => change.diff).join('');
  (options.format === 'json' ? process.stderr : process.stdout).write(diffs);
  const result = await compat.checkCompatibility({
    root: options.root,
    files: options.files,
    baseline: options.baseline,
    ...(options.configPath === undefined ? {} : { configPath: options.configPath }),
  });
  // Asked before the JSON document is written, so that it holds what the API server refused.
  const refused = await serverRefusals(options);
  if (options.format === 'json') {
    const stale = options.changes
      .filter((c) => c.status !== 'unchanged')
      .map(({ path, status }) => ({ path, status }));
    const document = {
      stale,
      compatibility: compat.compatibilityJson(result),
      ...(refused === undefined ? {} : { serverRefusals: refused.map(refusalJson) }),
    };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    process.stdout.write(compat.compatibilityLines(result));
  }
  const note = compat.skippedNote(result);
  if (note) process.stderr.write(note);
  const problems = [
    staleManifestsError(options.changes),
    compat.incompatibleError(result),
    refused === undefined || refused.length === 0 ? undefined : new DiagnosticsError(refused),
  ].filter((error) => error !== undefined);
  if (problems.length > 0) throw new TsoperatorError(problems.map((error) => error.message).join('\n'));
}

/** What the API server refused; undefined when the check was not asked for. */
async function serverRefusals(options: ManifestsCheckOptions): Promise<Diagnostic[] | undefined> {
  if (options.server === undefined) return undefined;
  const { checkOnServer } = await import('../gen/server-check/check-on-server.ts');
  return checkOnServer({ files: options.files, ...options.server });
}

function refusalJson({ location, code, message }: Diagnostic) {
  return { file: location.file, line: location.line, column: location.column, code, message };
}

import type { Diagnostic } from '../markers/index.ts';
import {
  DiagnosticList,
  compareDiagnostics,
  createMarkerRegistry,
  formatDiagnostic,
} from '../markers/index.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_FILE, parseProjectFile } from '../project/project-file.ts';
import { tsoperatorVersion } from '../version.ts';
import { crdManifestGenerator } from './crd/index.ts';
import type { SchemaSites } from './crd/schema-site.ts';
import type { ManifestFile, ManifestGenerator } from './manifest-generator.ts';
import { rbacManifestGenerator } from './rbac/index.ts';
import { webhookManifestGenerator } from './webhook/index.ts';

/**
 * The generators `tsoperator manifests` runs, in order: CRDs (`config/crd/bases`), RBAC
 * (`config/rbac/role.yaml`) and webhook configuration (`config/webhook/manifests.yaml`).
 */
export const manifestGenerators: readonly ManifestGenerator[] = [
  crdManifestGenerator,
  rbacManifestGenerator,
  webhookManifestGenerator,
];

export interface GenerateManifestsOptions {
  readonly root: string;
  /** Default: `manifestGenerators`. */
  readonly generators?: readonly ManifestGenerator[];
  /** Default: this package's version, as `v<version>`. */
  readonly generatorVersion?: string;
  /**
   * Called with each warning (a problem that does not stop generation), in file order.
   * Default: printed to stderr as `tsc` prints its own.
   */
  readonly onWarning?: (warning: Diagnostic) => void;
  /**
   * The longest description a CRD schema keeps, in bytes, as controller-gen's `crd:maxDescLen`
   * (0 drops them, a negative number keeps them whole). Default: the PROJECT file's
   * `crd.maxDescLen` setting, else no limit.
   */
  readonly maxDescLen?: number | undefined;
  /** Filled, when given, with each CRD version's source map (see `GeneratorContext.schemaSites`). */
  readonly schemaSites?: Map<string, SchemaSites> | undefined;
}

/**
 * Every manifest of a project, sorted by path. Throws a DiagnosticsError listing all problems (with
 * file:line:col) when any generator found one, so nothing half-generated is ever written.
 *
 * @example
 * const files = generateManifests({ root: process.cwd() });
 */
export function generateManifests(options: GenerateManifestsOptions): ManifestFile[] {
  const generators = options.generators ?? manifestGenerators;
  const context = {
    root: options.root,
    registry: createMarkerRegistry(generators.flatMap((g) => g.markers ?? [])),
    diagnostics: new DiagnosticList(),
    generatorVersion: options.generatorVersion ?? `v${tsoperatorVersion()}`,
    maxDescLen: options.maxDescLen ?? projectMaxDescLen(options.root),
    schemaSites: options.schemaSites,
  };
  const files = generators.flatMap((generator) => generator.generate(context));
  context.diagnostics.throwIfErrors();
  const onWarning = options.onWarning ?? printWarning;
  for (const warning of [...context.diagnostics.items].sort(compareDiagnostics)) onWarning(warning);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function printWarning(warning: Diagnostic): void {
  process.stderr.write(`${formatDiagnostic(warning)}\n`);
}

/** The PROJECT file's setting, so that every command that regenerates the manifests writes the same. */
function projectMaxDescLen(root: string): number | undefined {
  const path = join(root, PROJECT_FILE);
  if (!existsSync(path)) return undefined;
  return parseProjectFile(readFileSync(path, 'utf8'), path).settings.crd?.maxDescLen;
}

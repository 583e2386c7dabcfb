import type { DiagnosticList, MarkerDefinition, MarkerRegistry } from '../markers/index.ts';
import type { SchemaSites } from './crd/schema-site.ts';

/** A file a generator writes, relative to the project root, with its full content. */
export interface ManifestFile {
  readonly path: string;
  readonly content: string;
}

/** What every generator gets: the project, one registry of all markers, and one diagnostics list. */
export interface GeneratorContext {
  readonly root: string;
  readonly registry: MarkerRegistry;
  readonly diagnostics: DiagnosticList;
  /** The tsoperator version, for annotations that say what generated a file (`v0.1.0`). */
  readonly generatorVersion: string;
  /** The longest description a CRD schema keeps, in bytes (controller-gen's `crd:maxDescLen`). Default: no limit. */
  readonly maxDescLen?: number | undefined;
  /**
   * When given, the CRD generator records here, by `<crd name>/<version>`, where each schema node
   * came from, so that what the API server later refuses is reported at its marker.
   */
  readonly schemaSites?: Map<string, SchemaSites> | undefined;
}

/**
 * One kind of manifest (CRDs, RBAC, webhook configurations). Generators report problems to
 * `context.diagnostics` instead of throwing, so one run shows every problem of every generator.
 */
export interface ManifestGenerator {
  readonly name: string;
  /** The markers this generator reads beyond the built-in CRD ones; they join the shared registry. */
  readonly markers?: readonly MarkerDefinition[];
  generate(context: GeneratorContext): ManifestFile[];
}

import type { InterfaceDeclaration } from 'ts-morph';
import type { DiagnosticList, MarkerRegistry } from '../../markers/index.ts';
import { DiagnosticCodes, packageMarkers } from '../../markers/index.ts';
import type { ApiProject, ApiVersionFolder } from './api-project.ts';
import { loadApiProject } from './api-project.ts';
import { ApiTypes } from './api-types.ts';
import type { KindVersion } from './build-crd.ts';
import { buildCrd } from './build-crd.ts';
import { checkMarkerValues } from './check-marker-values.ts';
import { checkCrdSize } from './crd-size.ts';
import type { CustomResourceDefinition } from './custom-resource-definition.ts';
import { finalizeSchema } from './finalize-schema.ts';
import { findKinds } from './find-kinds.ts';
import { flattenSchema } from './flatten.ts';
import { KNOWN_REF_PREFIX, SchemaFormatter } from './format-schema.ts';
import { sharedKnownTypeSchema } from './known-types/index.ts';
import { SchemaSites } from './schema-site.ts';
import { truncateDescriptions } from './truncate-descriptions.ts';
import { withRootFields } from './type-meta.ts';

export interface CrdGeneratorOptions {
  /** The project root; API types are read from `src/api` below it. */
  readonly root: string;
  readonly registry: MarkerRegistry;
  /** Problems go here; the caller decides whether to stop (a generator never throws on user errors). */
  readonly diagnostics: DiagnosticList;
  /** Written into each CRD's version annotation, e.g. `v0.1.0`. */
  readonly generatorVersion: string;
  /** The longest description a schema keeps, in bytes (controller-gen's `crd:maxDescLen`). Default: no limit. */
  readonly maxDescLen?: number | undefined;
  /** Filled, when given, with the source map of each CRD version, by `<crd name>/<version>`. */
  readonly schemaSites?: Map<string, SchemaSites> | undefined;
}

/**
 * The CustomResourceDefinitions of a project, one per group and kind, ordered by group then kind.
 *
 * @example
 * const diagnostics = new DiagnosticList();
 * const crds = generateCrds({ root: '.', registry: createMarkerRegistry(), diagnostics, generatorVersion: 'v0.1.0' });
 * diagnostics.throwIfErrors();
 */
export function generateCrds(options: CrdGeneratorOptions): CustomResourceDefinition[] {
  const api = loadApiProject(options.root, options.registry, options.diagnostics);
  const types = new ApiTypes(api.context);
  const formatter = new SchemaFormatter(types, options.diagnostics, optionalByDefault(api));
  const byKind = new Map<string, { group: string; kind: string; versions: KindVersion[] }>();
  for (const folder of api.folders) {
    for (const declaration of findKinds(folder.files, api.context)) {
      const key = JSON.stringify([folder.group, declaration.getName()]);
      const entry = byKind.get(key) ?? { group: folder.group, kind: declaration.getName(), versions: [] };
      entry.versions.push(kindVersion(folder, declaration, types, formatter, options));
      byKind.set(key, entry);
    }
  }
  reportUngroupedKinds(api, options.diagnostics);
  return [...byKind.keys()].sort().flatMap((key) => {
    const { group, kind, versions } = byKind.get(key) ?? { group: '', kind: '', versions: [] };
    const crd = buildCrd(group, kind, versions, options.generatorVersion, options.diagnostics);
    const at = versions[0]?.location;
    if (crd && at) checkCrdSize(crd, at, options.diagnostics);
    if (crd) for (const v of versions) options.schemaSites?.set(`${crd.metadata.name}/${v.version}`, v.sites);
    return crd ?? [];
  });
}

function kindVersion(
  folder: ApiVersionFolder,
  declaration: InterfaceDeclaration,
  types: ApiTypes,
  formatter: SchemaFormatter,
  options: CrdGeneratorOptions,
): KindVersion {
  const { diagnostics, maxDescLen } = options;
  const named = types.get(types.request(declaration));
  const resolve = (ref: string) =>
    ref.startsWith(KNOWN_REF_PREFIX)
      ? (sharedKnownTypeSchema(ref.slice(KNOWN_REF_PREFIX.length)) ?? {})
      : formatter.namedSchema(ref);
  const conflict = (message: string, ref?: string) => {
    const at = ref === undefined || ref.startsWith(KNOWN_REF_PREFIX) ? named : types.get(ref);
    diagnostics.error(DiagnosticCodes.conflictingMarkers, message, at.location);
  };
  const flattened = flattenSchema(formatter.namedSchema(named.id), resolve, conflict);
  const rooted = withRootFields(flattened);
  const schema = finalizeSchema(maxDescLen === undefined ? rooted : truncateDescriptions(rooted, maxDescLen));
  const sites = new SchemaSites(types, named.id);
  checkMarkerValues(schema, sites, diagnostics);
  return {
    version: folder.version,
    schema,
    sites,
    markers: named.markers,
    location: named.location,
  };
}

/** A kind in a folder without `+groupName` would silently get no CRD: say what to add. */
function reportUngroupedKinds(api: ApiProject, diagnostics: DiagnosticList): void {
  for (const declaration of findKinds(api.ungrouped, api.context)) {
    const file = declaration.getSourceFile();
    const { line, column } = file.getLineAndColumnAtPos(declaration.getNameNode().getStart());
    const message =
      `kind ${declaration.getName()} is in a folder without +groupName; add a groupversion-info.ts ` +
      'there with `// +groupName=<group>` at its top';
    diagnostics.error(DiagnosticCodes.missingGroupVersion, message, {
      file: api.context.displayPath(file),
      line,
      column,
    });
  }
}

/** Whether a file's folder says `+kubebuilder:validation:Optional` (fields optional unless marked). */
function optionalByDefault(api: ApiProject): (file: string) => boolean {
  const optionalFiles = new Set(
    api.folders
      .filter((folder) => folder.markers.has(packageMarkers.optionalByDefault))
      .flatMap((folder) => folder.files.map((file) => api.context.displayPath(file))),
  );
  return (file) => optionalFiles.has(file);
}

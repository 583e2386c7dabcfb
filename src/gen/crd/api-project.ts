import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { SourceFile } from 'ts-morph';
import { Project } from 'ts-morph';
import type { DiagnosticList, MarkerContext, MarkerRegistry, MarkerSet } from '../../markers/index.ts';
import { collectFileMarkers, packageMarkers } from '../../markers/index.ts';
import { displayPath } from '../marked-sources.ts';

/** One API version folder (`src/api/v1`): its group and version, from its group-version file. */
export interface ApiVersionFolder {
  readonly group: string;
  readonly version: string;
  readonly files: readonly SourceFile[];
  readonly markers: MarkerSet;
}

/** The API sources of a project, loaded with ts-morph, and the context markers are read in. */
export interface ApiProject {
  readonly project: Project;
  readonly folders: readonly ApiVersionFolder[];
  /** Files of folders without `+groupName` (nor `+kubebuilder:skip`): shared types, or a mistake. */
  readonly ungrouped: readonly SourceFile[];
  readonly context: MarkerContext;
}

/** Where a project keeps its API types, relative to its root. */
export const API_DIR = join('src', 'api');

/**
 * Loads every `.ts` file under `src/api` (tests and declaration files aside). A folder whose files
 * carry `+groupName` is an API version; folders without one hold shared helper types.
 */
export function loadApiProject(
  root: string,
  registry: MarkerRegistry,
  diagnostics: DiagnosticList,
): ApiProject {
  const project = new Project({
    useInMemoryFileSystem: false,
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    compilerOptions: { allowJs: false, noLib: true },
  });
  const context: MarkerContext = {
    registry,
    diagnostics,
    displayPath: (file) => displayPath(root, file),
  };
  const folders: ApiVersionFolder[] = [];
  const ungrouped: SourceFile[] = [];
  for (const dir of apiDirectories(join(root, API_DIR))) {
    const files = typeFiles(dir).map((path) => project.addSourceFileAtPath(path));
    const markerSets = files.map((file) => collectFileMarkers(file, context));
    if (markerSets.some((set) => set.has(packageMarkers.skip))) continue;
    const markers = markerSets.find((set) => set.has(packageMarkers.groupName));
    if (markers) folders.push(versionFolder(dir, files, markers));
    else ungrouped.push(...files);
  }
  return { project, folders, ungrouped, context };
}

function versionFolder(dir: string, files: SourceFile[], markers: MarkerSet): ApiVersionFolder {
  const group = markers.value(packageMarkers.groupName) ?? '';
  const version = markers.value(packageMarkers.versionName) ?? dir.split(sep).at(-1) ?? '';
  return { group, version, files, markers };
}

function apiDirectories(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const children = readdirSync(dir)
    .sort()
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isDirectory());
  return [dir, ...children.flatMap(apiDirectories)];
}

function typeFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

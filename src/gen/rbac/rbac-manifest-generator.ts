import { posix } from 'node:path';
import type { SourceFile } from 'ts-morph';
import { rbacMarkers } from '../../markers/definitions/rbac.ts';
import type { ManifestGenerator } from '../manifest-generator.ts';
import { displayPath, sourcesMentioning } from '../marked-sources.ts';
import { writeYamlDocuments } from '../yaml/write-yaml-documents.ts';
import { generateRoles } from './generate-roles.ts';
import { readRbacMarkers } from './read-rbac-markers.ts';

/** Where the manager's roles go, as Kubebuilder lays out `config/`. */
export const ROLE_FILE = posix.join('config', 'rbac', 'role.yaml');

/** `+kubebuilder:rbac` markers anywhere under `src/` to `config/rbac/role.yaml`; no markers, no file. */
export const rbacManifestGenerator: ManifestGenerator = {
  name: 'rbac',
  markers: [rbacMarkers.rule],
  generate(context) {
    const files = sourcesMentioning(context.root, [`+${rbacMarkers.rule.name}`]);
    const markerContext = { ...context, displayPath: (file: SourceFile) => displayPath(context.root, file) };
    const roles = generateRoles(readRbacMarkers(files, markerContext));
    return roles.length === 0 ? [] : [{ path: ROLE_FILE, content: writeYamlDocuments(roles) }];
  },
};

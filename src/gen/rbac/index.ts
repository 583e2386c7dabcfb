export { DEFAULT_ROLE_NAME, generateRoles } from './generate-roles.ts';
export { readRbacMarkers } from './read-rbac-markers.ts';
export type { PolicyRule } from './policy-rule.ts';
export type { RbacMarker } from './rbac-marker.ts';
export type { RoleManifest } from './role-manifest.ts';
export { ROLE_FILE, rbacManifestGenerator } from './rbac-manifest-generator.ts';

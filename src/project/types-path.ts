/**
 * Where a kind's types live: `src/api/<version>/<kind>.types.ts`, under its group's folder in a
 * multi-group project (`src/api/<group>/<version>/`), except for the bare domain's kinds, which have
 * no group to name a folder after.
 */
export function typesPath(
  resource: { group: string; version: string; kind: string },
  multigroup: boolean,
): string {
  return `src/api/${groupFolder(resource.group, multigroup)}${resource.version}/${resource.kind.toLowerCase()}.types.ts`;
}

/** `<group>/` in a multi-group project, else '': the folder level a group adds to a path. */
export function groupFolder(group: string, multigroup: boolean): string {
  return multigroup && group !== '' ? `${group}/` : '';
}

import { writeYaml } from './write-yaml.ts';
import type { YamlValue } from './yaml-value.ts';

/**
 * Several objects as one YAML stream, each document opened by `---`, as controller-gen writes
 * role.yaml and webhook manifests.
 *
 * @example
 * writeYamlDocuments([{ kind: 'Role' }]); // '---\nkind: Role\n'
 */
export function writeYamlDocuments(documents: readonly object[]): string {
  return documents.map((document) => `---\n${writeYaml(document as YamlValue)}`).join('');
}

import { posix } from 'node:path';
import { writeYaml } from '../yaml/write-yaml.ts';
import type { YamlValue } from '../yaml/yaml-value.ts';
import type { CustomResourceDefinition } from './custom-resource-definition.ts';

/** Where CRDs go, relative to the project root, as Kubebuilder lays out `config/`. */
export const CRD_BASES_DIR = posix.join('config', 'crd', 'bases');

/**
 * The file path (`config/crd/bases/<group>_<plural>.yaml`) and bytes of a CRD, as controller-gen writes them.
 *
 * @example
 * const { path, content } = crdFile(crd); // 'config/crd/bases/demo.example.org_webapps.yaml', '---\napiVersion: ...'
 */
export function crdFile(crd: CustomResourceDefinition): { path: string; content: string } {
  const path = posix.join(CRD_BASES_DIR, `${crd.spec.group}_${crd.spec.names.plural}.yaml`);
  return { path, content: `---\n${writeYaml(crd as unknown as YamlValue)}` };
}

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TsoperatorError } from '../../errors.ts';
import type { Baseline } from './compared-crd.ts';
import { crdsInYaml } from './crds-in-yaml.ts';

/** `--against-file`: the CRDs of a YAML file, or of the YAML files of a folder and its subfolders. */
export function fileBaseline(root: string, path: string): Baseline {
  const target = resolve(root, path);
  if (!existsSync(target)) throw new TsoperatorError(`--against-file: ${path} does not exist`);
  const files = statSync(target).isDirectory() ? yamlFilesUnder(target) : [target];
  return {
    source: `file ${path}`,
    crds: files.flatMap((file) => crdsInYaml(readFileSync(file, 'utf8'), file)),
  };
}

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => join(dir, name));
}

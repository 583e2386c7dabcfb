import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { TsoperatorError } from '../errors.ts';

/** kwok's Go module. */
export const KWOK_MODULE = 'sigs.k8s.io/kwok';

/**
 * The kwok release tsoperator builds: the newest the Go module proxy serves. It is tested against
 * Kubernetes up to 1.36 and talks to the API server through client-go, whose skew policy covers
 * the 1.37 control plane.
 */
export const KWOK_VERSION = '0.8.0';

/** Next to the kwok binary: the Stage configuration it is started with. */
export const KWOK_STAGES_FILE = 'kwok-stages.yaml';

/**
 * Next to the kwok binary: the release it was built from. The binary and its stages are named
 * alike for every release, so a cached pair is current only while this file reads KWOK_VERSION.
 */
export const KWOK_VERSION_FILE = 'kwok.version';

/** True when `dir` holds the kwok of KWOK_VERSION, as a build stamps it. */
export function kwokIsCurrent(dir: string): boolean {
  try {
    return readFileSync(join(dir, KWOK_VERSION_FILE), 'utf8').trim() === KWOK_VERSION;
  } catch {
    return false;
  }
}

/** The kustomization kwok names as its default stage set, relative to its module. */
const DEFAULT_STAGE_SET = join('kustomize', 'stage', 'fast');

/**
 * kwok's default stages, read from its module: nodes turn Ready and renew a lease, Pods on them turn
 * Running and Ready, and Pods being deleted go away. The `kwok` binary has no built-in stages (only
 * kwokctl embeds them), so they are passed to it as a configuration file.
 */
export async function defaultKwokStages(moduleDir: string): Promise<string> {
  const documents = await kustomizationDocuments(join(moduleDir, DEFAULT_STAGE_SET));
  return documents.map((doc) => doc.trim()).join('\n---\n') + '\n';
}

/** The YAML files a kustomization lists, following nested kustomizations, in order. */
async function kustomizationDocuments(dir: string): Promise<string[]> {
  const path = join(dir, 'kustomization.yaml');
  const kustomization = load(await readFile(path, 'utf8')) as { resources?: unknown };
  if (!Array.isArray(kustomization.resources)) {
    throw new TsoperatorError(`${path} lists no resources: the kwok module's stage layout changed.`);
  }
  const documents: string[] = [];
  for (const resource of kustomization.resources as unknown[]) {
    const target = join(dir, String(resource));
    if (target.endsWith('.yaml')) documents.push(await readFile(target, 'utf8'));
    else documents.push(...(await kustomizationDocuments(target)));
  }
  return documents;
}

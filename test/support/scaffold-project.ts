import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ResourceRequest } from '../../src/project/resolve-resource.ts';
import { planApi, type ApiPlan } from '../../src/scaffold/api/plan-api.ts';
import { applyWrites } from '../../src/scaffold/apply.ts';
import { fileWrites, type Change } from '../../src/scaffold/change.ts';
import type { InitOptions } from '../../src/scaffold/init/init-options.ts';
import { planInit } from '../../src/scaffold/init/plan-init.ts';

/** A new empty folder named `webapp-operator` in a temporary folder. */
export async function emptyProjectFolder(): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), 'tsoperator-scaffold-')), 'webapp-operator');
  await mkdir(dir);
  return dir;
}

/** Runs `body` in a new empty project folder, removed afterwards. */
export async function inEmptyProjectFolder(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await emptyProjectFolder();
  try {
    await body(dir);
  } finally {
    await rm(dirname(dir), { recursive: true, force: true });
  }
}

/** Plans and applies `init`, as the command does. */
export async function initProject(dir: string, options: Partial<InitOptions> = {}): Promise<Change[]> {
  const changes = await planInit({
    dir,
    domain: 'example.org',
    projectName: 'webapp-operator',
    license: 'apache2',
    namespaced: false,
    multigroup: false,
    force: false,
    ...options,
  });
  await applyWrites(dir, fileWrites(changes));
  return changes;
}

/** Plans and applies `create api`, as the command does. */
export async function createApi(dir: string, request: ResourceRequest): Promise<ApiPlan> {
  const plan = await planApi({ dir, ...request });
  await applyWrites(dir, fileWrites(plan.changes));
  return plan;
}

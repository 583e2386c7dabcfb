import assert from 'node:assert/strict';
import { appendFile, cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { load } from 'js-yaml';
import { snapshotFolder } from '../support/folder-snapshot.ts';
import { repoRoot, runTsoperatorSource, type CliResult } from '../support/cli.ts';

/*
 * `tsoperator edit --plugins grafana` in a copy of testdata/project-v4-multigroup (project-v4 has the
 * plugin already), and `init --plugins grafana`
 * in an empty folder: the files Kubebuilder's grafana plugin writes, the plugin in PROJECT.
 */
const RUNTIME = 'grafana/controller-runtime-metrics.json';
const RESOURCES = 'grafana/controller-resources-metrics.json';
const CONFIG = 'grafana/custom-metrics/config.yaml';
const CUSTOM = 'grafana/custom-metrics/custom-metrics-dashboard.json';

let project: string;

async function plugins(dir: string): Promise<Record<string, unknown>> {
  const document = load(await readFile(join(dir, 'PROJECT'), 'utf8')) as { plugins: Record<string, unknown> };
  return document.plugins;
}

function edit(...args: string[]): Promise<CliResult> {
  return runTsoperatorSource(['edit', ...args], project);
}

describe('tsoperator edit --plugins grafana', () => {
  before(async () => {
    project = await mkdtemp(join(tmpdir(), 'tsoperator-grafana-'));
    await cp(join(repoRoot, 'testdata', 'project-v4-multigroup'), project, { recursive: true });
  });
  after(() => rm(project, { recursive: true, force: true }));

  it('refuses a plugin it does not have, and writes nothing', async () => {
    const before = await snapshotFolder(project);
    const result = await edit('--plugins', 'grafana,helm');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--plugins: unknown plugin "helm"; tsoperator has: grafana/);
    assert.deepEqual(await snapshotFolder(project), before);
  });

  it('prints the plan under --dry-run and writes nothing', async () => {
    const before = await snapshotFolder(project);
    const result = await edit('--plugins', 'grafana', '--dry-run');
    assert.equal(result.code, 0, result.stderr);
    for (const path of [RUNTIME, RESOURCES, CONFIG])
      assert.match(result.stdout, new RegExp(`^create {4}${path}$`, 'm'));
    assert.match(result.stdout, /^overwrite PROJECT$/m);
    assert.deepEqual(await snapshotFolder(project), before);
  });

  it("writes the dashboards and the config, and records Kubebuilder's plugin key in PROJECT", async () => {
    const result = await edit('--plugins', 'grafana.kubebuilder.io/v1-alpha');
    assert.equal(result.code, 0, result.stderr);
    for (const path of [RUNTIME, RESOURCES]) {
      const dashboard = JSON.parse(await readFile(join(project, path), 'utf8')) as { panels: unknown[] };
      assert.ok(dashboard.panels.length > 0, path);
    }
    assert.match(await readFile(join(project, CONFIG), 'utf8'), /^customMetrics:$/m);
    assert.equal(existsSync(join(project, CUSTOM)), false);
    assert.deepEqual((await plugins(project))['grafana.kubebuilder.io/v1-alpha'], {});
  });

  it('reruns without a change', async () => {
    const before = await snapshotFolder(project);
    const result = await edit('--plugins', 'grafana');
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /^(create|overwrite)/m);
    assert.deepEqual(await snapshotFolder(project), before);
  });

  it('writes the custom-metrics dashboard on a rerun once the config lists metrics', async () => {
    await appendFile(
      join(project, CONFIG),
      '  - metric: memcached_deployments_created_total\n    type: counter\n',
    );
    const result = await edit('--plugins', 'grafana');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`^create {4}${CUSTOM}$`, 'm'));
    const dashboard = JSON.parse(await readFile(join(project, CUSTOM), 'utf8')) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    assert.deepEqual(
      dashboard.panels.map((panel) => panel.title),
      ['memcached_deployments_created_total (counter)'],
    );
    assert.match(dashboard.panels[0]?.targets[0]?.expr ?? '', /rate\(memcached_deployments_created_total\{/);
  });
});

describe('tsoperator init --plugins grafana', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsoperator-init-grafana-'));
    await mkdir(join(dir, 'dashboards-demo'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('scaffolds the dashboards, the base CSV, and the plugin in PROJECT', async () => {
    const folder = join(dir, 'dashboards-demo');
    const result = await runTsoperatorSource(
      ['init', '--domain', 'example.org', '--plugins', 'grafana'],
      folder,
    );
    assert.equal(result.code, 0, result.stderr);
    for (const path of [
      RUNTIME,
      RESOURCES,
      CONFIG,
      'config/manifests/bases/dashboards-demo.clusterserviceversion.yaml',
    ])
      assert.ok(existsSync(join(folder, path)), path);
    assert.deepEqual((await plugins(folder))['grafana.kubebuilder.io/v1-alpha'], {});
  });
});

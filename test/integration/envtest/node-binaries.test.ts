import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { resolveAssets, startEnvironment } from '../../../src/envtest/index.ts';
import { binariesFor } from '../../../src/envtest/binaries.ts';
import { assetsDir } from '../../../src/envtest/paths.ts';
import { DEFAULT_KUBERNETES_VERSION, parseKubernetesVersion } from '../../../src/envtest/versions.ts';
import { TsoperatorError } from '../../../src/errors.ts';

// A cache made where Go is not, or where the kwok build failed: it has the control plane but not
// kube-scheduler and kwok. Go is kept off PATH so nothing tries to build them.
describe('a cache without kube-scheduler and kwok', () => {
  const cache = mkdtempSync(join(tmpdir(), 'tsoperator-no-node-binaries-'));
  const savedEnv = { PATH: process.env['PATH'], TSOPERATOR_CACHE: process.env['TSOPERATOR_CACHE'] };
  let dir: string;

  before(async () => {
    const real = (await resolveAssets()).dir;
    dir = assetsDir(parseKubernetesVersion(DEFAULT_KUBERNETES_VERSION), cache);
    mkdirSync(dir, { recursive: true });
    for (const name of binariesFor(false)) symlinkSync(join(real, name), join(dir, name));
    process.env['TSOPERATOR_CACHE'] = cache;
    process.env['PATH'] = dirname(process.execPath);
  });
  after(() => {
    Object.assign(process.env, savedEnv);
    rmSync(cache, { recursive: true, force: true });
  });

  it('runs a plain control plane with a controller manager', async () => {
    await using env = await startEnvironment({ controllerManager: true });
    assert.equal(env.binDir, dir);
    const namespaces = await env.kubeConfig.makeApiClient(CoreV1Api).listNamespace();
    assert.ok(namespaces.items.some((ns) => ns.metadata?.name === 'default'));
  });

  it('refuses nodes before it starts anything, naming what to run', async () => {
    await assert.rejects(startEnvironment({ nodes: 1 }), (err: unknown) => {
      assert.ok(err instanceof TsoperatorError);
      assert.equal(
        err.message,
        `${dir} lacks kube-scheduler, kwok, which this environment runs: install Go (https://go.dev/dl) and run \`tsoperator envtest use ${DEFAULT_KUBERNETES_VERSION}\` to build them.`,
      );
      return true;
    });
  });

  it('asks for the binaries, not `envtest use`, when KUBEBUILDER_ASSETS names the folder', async () => {
    const saved = process.env['KUBEBUILDER_ASSETS'];
    process.env['KUBEBUILDER_ASSETS'] = dir;
    try {
      await assert.rejects(startEnvironment({ nodes: 1 }), (err: unknown) => {
        assert.ok(err instanceof TsoperatorError);
        assert.equal(
          err.message,
          `${dir} lacks kube-scheduler, kwok, which this environment runs: add them to that folder, or unset KUBEBUILDER_ASSETS to let tsoperator obtain them.`,
        );
        return true;
      });
    } finally {
      if (saved === undefined) delete process.env['KUBEBUILDER_ASSETS'];
      else process.env['KUBEBUILDER_ASSETS'] = saved;
    }
  });
});

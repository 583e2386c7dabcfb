import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveAssets } from '../../../src/envtest/assets.ts';
import { CONTROL_PLANE_BINARIES } from '../../../src/envtest/binaries.ts';
import { KWOK_VERSION, KWOK_VERSION_FILE } from '../../../src/envtest/kwok-release.ts';
import { parseKubernetesVersion } from '../../../src/envtest/versions.ts';
import { TsoperatorError } from '../../../src/errors.ts';

function folderWith(names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'tsoperator-assets-'));
  for (const name of names) writeFileSync(join(dir, name), '#!/bin/sh\n', { mode: 0o755 });
  return dir;
}

describe('resolveAssets', () => {
  it('takes KUBEBUILDER_ASSETS first, noting the missing binaries it could build', async () => {
    const dir = folderWith(['etcd', 'kube-apiserver', 'kubectl']);
    try {
      const assets = await resolveAssets({ env: { KUBEBUILDER_ASSETS: dir } });
      assert.deepEqual(assets, {
        dir,
        source: 'env',
        missing: ['kube-controller-manager', 'kube-scheduler', 'kwok'],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says which binaries KUBEBUILDER_ASSETS lacks', async () => {
    const dir = folderWith(['kubectl']);
    try {
      await assert.rejects(resolveAssets({ env: { KUBEBUILDER_ASSETS: dir } }), (err: unknown) => {
        assert.ok(err instanceof TsoperatorError);
        assert.equal(
          err.message,
          `KUBEBUILDER_ASSETS=${dir} lacks etcd, kube-apiserver: point it at a folder holding etcd, kube-apiserver, kubectl, kube-controller-manager, kube-scheduler, kwok, or unset it to let tsoperator find them.`,
        );
        return true;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers from the cache when every binary is there', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'tsoperator-cache-'));
    try {
      const version = parseKubernetesVersion('1.35.4');
      const dir = join(
        cacheDir,
        'envtest',
        'k8s',
        `1.35.4-linux-${process.arch === 'x64' ? 'amd64' : process.arch}`,
      );
      const { mkdirSync } = await import('node:fs');
      mkdirSync(dir, { recursive: true });
      for (const name of CONTROL_PLANE_BINARIES) writeFileSync(join(dir, name), '', { mode: 0o755 });
      writeFileSync(join(dir, KWOK_VERSION_FILE), `${KWOK_VERSION}\n`);
      const assets = await resolveAssets({
        version: version.text,
        cacheDir,
        env: {},
        allowDownload: false,
        allowBuild: false,
      });
      assert.deepEqual(assets, { dir, source: 'cache', missing: [] });
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

describe('parseKubernetesVersion', () => {
  it('accepts 1.37.2 and v1.37.2', () => {
    assert.equal(parseKubernetesVersion('v1.37.2').text, '1.37.2');
    assert.deepEqual(
      { ...parseKubernetesVersion('1.34.0') },
      { major: 1, minor: 34, patch: 0, text: '1.34.0' },
    );
  });

  it('refuses what is not a release version, showing the expected form', () => {
    assert.throws(() => parseKubernetesVersion('latest'), {
      message: '"latest" is not a Kubernetes version: give a full release version such as 1.37.2.',
    });
    assert.throws(() => parseKubernetesVersion('1.37'), /is not a Kubernetes version/);
  });

  it('refuses versions older than envtest supports', () => {
    assert.throws(
      () => parseKubernetesVersion('1.20.1'),
      /Kubernetes 1\.20\.1 is not supported: envtest here needs 1\.30\.0 or newer/,
    );
  });
});

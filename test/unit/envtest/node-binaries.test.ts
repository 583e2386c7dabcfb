import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { resolveAssets } from '../../../src/envtest/assets.ts';
import { binariesFor, CONTROL_PLANE_BINARIES } from '../../../src/envtest/binaries.ts';
import { KWOK_VERSION, KWOK_VERSION_FILE } from '../../../src/envtest/kwok-release.ts';
import { assetsDir } from '../../../src/envtest/paths.ts';
import { parseKubernetesVersion } from '../../../src/envtest/versions.ts';

// A `go` on PATH that answers `go version` and fails everything else, logging each call: what
// resolveAssets would build shows in the log, and no build can reach the network.
describe('resolveAssets and the binaries only nodes need', () => {
  const work = mkdtempSync(join(tmpdir(), 'tsoperator-node-binaries-'));
  const log = join(work, 'go.log');
  const savedPath = process.env['PATH'];
  let cacheDir: string;
  let dir: string;

  before(() => {
    const bin = join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'go'),
      `#!/bin/sh\necho "$*" >> "${log}"\n[ "$1" = version ] && { echo go version go1.26.0; exit 0; }\necho offline >&2\nexit 1\n`,
      { mode: 0o755 },
    );
    process.env['PATH'] = `${bin}:${savedPath ?? ''}`;
  });
  after(() => {
    process.env['PATH'] = savedPath;
    rmSync(work, { recursive: true, force: true });
  });
  beforeEach(() => {
    cacheDir = mkdtempSync(join(work, 'cache-'));
    dir = assetsDir(parseKubernetesVersion('1.35.4'), cacheDir);
    mkdirSync(dir, { recursive: true });
    rmSync(log, { force: true });
  });

  const resolve = (nodes: boolean) =>
    resolveAssets({ version: '1.35.4', cacheDir, env: {}, allowDownload: false, nodes });
  const goCalls = (): string[] => {
    try {
      return readFileSync(log, 'utf8').trim().split('\n');
    } catch {
      return [];
    }
  };
  const place = (names: readonly string[]) => {
    for (const name of names) writeFileSync(join(dir, name), '#!/bin/sh\n', { mode: 0o755 });
  };

  it('answers a plain control plane from a cache without kube-scheduler and kwok, building nothing', async () => {
    place(binariesFor(false));
    const assets = await resolve(false);
    assert.deepEqual(assets, { dir, source: 'cache', missing: ['kube-scheduler', 'kwok'] });
    assert.deepEqual(goCalls(), []);
  });

  it('builds kube-scheduler and kwok when nodes are asked for, and their failure is the error', async () => {
    place(binariesFor(false));
    await assert.rejects(
      resolve(true),
      /^TsoperatorError: Kubernetes 1\.35\.4 could not be fetched .*\(offline\)/,
    );
    assert.deepEqual(goCalls(), ['version', 'mod download -json k8s.io/kubernetes@v1.35.4']);
  });

  it('rebuilds a cached kwok of another release, and only kwok', async () => {
    place(CONTROL_PLANE_BINARIES);
    writeFileSync(join(dir, KWOK_VERSION_FILE), '0.7.0\n');
    await assert.rejects(resolve(true), new RegExp(`kwok ${KWOK_VERSION} could not be fetched`));
    assert.deepEqual(goCalls(), ['version', `mod download -json sigs.k8s.io/kwok@v${KWOK_VERSION}`]);
  });

  it('takes a cached kwok stamped with the pinned release as it is', async () => {
    place(CONTROL_PLANE_BINARIES);
    writeFileSync(join(dir, KWOK_VERSION_FILE), `${KWOK_VERSION}\n`);
    assert.deepEqual(await resolve(true), { dir, source: 'cache', missing: [] });
    assert.deepEqual(goCalls(), []);
  });
});

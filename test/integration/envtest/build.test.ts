import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_KUBERNETES_VERSION } from '../../../src/envtest/index.ts';
import { KWOK_STAGES_FILE, KWOK_VERSION, KWOK_VERSION_FILE } from '../../../src/envtest/kwok-release.ts';
import { runTsoperator } from '../../support/cli.ts';

// An empty tsoperator cache forces the Go build path; Go's own build cache stays shared, so the
// compile work done by the suite's first `envtest use` is reused and this mostly links.
describe('tsoperator envtest use, from an empty cache', () => {
  const cache = mkdtempSync(join(tmpdir(), 'tsoperator-empty-cache-'));
  const env = { ...process.env, TSOPERATOR_CACHE: cache, KUBEBUILDER_ASSETS: '' };
  after(() => rmSync(cache, { recursive: true, force: true }));

  it('builds all six binaries from the Go module proxy, reporting progress, then answers from the cache', async () => {
    const first = await runTsoperator(['envtest', 'use', '--no-download'], { env });
    assert.equal(first.code, 0, first.stderr);
    const dir = first.stdout.trim();
    assert.ok(dir.startsWith(join(cache, 'envtest', 'k8s', `${DEFAULT_KUBERNETES_VERSION}-`)), dir);
    assert.equal(first.stdout, `${dir}\n`, 'stdout holds the folder alone: progress goes to stderr');
    assert.match(
      first.stderr,
      new RegExp(
        `^fetching k8s\\.io/kubernetes v${DEFAULT_KUBERNETES_VERSION} from the Go module proxy$`,
        'm',
      ),
    );
    for (const [step, binary] of [
      'kube-apiserver',
      'kubectl',
      'kube-controller-manager',
      'kube-scheduler',
      'etcd 3\\.\\d+\\.\\d+',
      `kwok ${KWOK_VERSION.replaceAll('.', '\\.')}`,
    ].entries()) {
      assert.match(
        first.stderr,
        new RegExp(`^building ${binary} from the Go module proxy \\(${step + 1} of 6;`, 'm'),
      );
      assert.match(first.stderr, new RegExp(`^built ${binary} in \\d+ s \\(${step + 1} of 6\\)$`, 'm'));
    }
    const version = execFileSync(join(dir, 'kube-apiserver'), ['--version'], { encoding: 'utf8' });
    assert.equal(version.trim(), `Kubernetes v${DEFAULT_KUBERNETES_VERSION}`);
    assert.match(
      execFileSync(join(dir, 'kubectl'), ['version', '--client'], { encoding: 'utf8' }),
      new RegExp(`v${DEFAULT_KUBERNETES_VERSION}`),
    );
    assert.match(execFileSync(join(dir, 'etcd'), ['--version'], { encoding: 'utf8' }), /etcd Version: 3\./);
    assert.match(
      execFileSync(join(dir, 'kube-controller-manager'), ['--version'], { encoding: 'utf8' }),
      new RegExp(`v${DEFAULT_KUBERNETES_VERSION}`),
    );

    assert.match(
      execFileSync(join(dir, 'kube-scheduler'), ['--version'], { encoding: 'utf8' }),
      new RegExp(`v${DEFAULT_KUBERNETES_VERSION}`),
    );
    assert.match(
      execFileSync(join(dir, 'kwok'), ['--version'], { encoding: 'utf8' }),
      new RegExp(`^kwok version v${KWOK_VERSION} `),
    );
    assert.match(readFileSync(join(dir, KWOK_STAGES_FILE), 'utf8'), /name: pod-ready\n/);
    assert.equal(readFileSync(join(dir, KWOK_VERSION_FILE), 'utf8'), `${KWOK_VERSION}\n`);

    const second = await runTsoperator(['envtest', 'use', '--no-download'], { env });
    assert.deepEqual(second, { code: 0, stdout: `${dir}\n`, stderr: '' });
  });

  it('gives a clear error for a version the Go module proxy does not have', async () => {
    const result = await runTsoperator(['envtest', 'use', '1.37.99', '--no-download'], { env });
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^Error: Kubernetes 1\.37\.99 could not be fetched from the Go module proxy \(k8s\.io\/kubernetes@v1\.37\.99: .+\)\. Check the version/m,
    );
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });
});

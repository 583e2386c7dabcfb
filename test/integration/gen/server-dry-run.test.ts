import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEnvironment } from '../../../src/envtest/index.ts';
import type { SchemaSites } from '../../../src/gen/crd/schema-site.ts';
import { generateManifests } from '../../../src/gen/manifests.ts';
import type { ServerTarget } from '../../../src/gen/server-check/check-on-server.ts';
import { checkOnServer } from '../../../src/gen/server-check/check-on-server.ts';
import { formatDiagnostic } from '../../../src/markers/index.ts';
import { runCliCaptured } from '../../support/captured-cli.ts';
import { runTsoperator } from '../../support/cli.ts';

// `manifests --check --server-dry-run` asks a real API server to dry-run each CRD and webhook
// configuration. What only the API server finds (CEL that does not compile, CEL over the cost
// budget, a default a CEL rule refuses) comes back with its own message, at the marker.

const fixtures = join(import.meta.dirname, '..', '..', '..', 'fixtures');

async function refusals(root: string, target: ServerTarget, env?: NodeJS.ProcessEnv): Promise<string[]> {
  const schemaSites = new Map<string, SchemaSites>();
  const files = generateManifests({ root, schemaSites, onWarning: () => undefined });
  const found = await checkOnServer({ files, schemaSites, target, ...(env ? { env } : {}) });
  return found.map(formatDiagnostic);
}

test('what the API server refuses is reported at the marker that wrote it', async () => {
  const found = await refusals(join(fixtures, 'server', 'refused'), 'envtest');
  const at = (prefix: string, fragment: string) =>
    assert.ok(
      found.some((line) => line.startsWith(prefix) && line.includes(fragment)),
      `expected ${prefix} ... ${fragment} in:\n${found.join('\n')}`,
    );
  at(
    'src/api/v1/thing_types.ts:7:6 - error TSOP3004: ',
    "compilation failed: ERROR: <input>:1:5: type 'string' does not support field selection",
  );
  at('src/api/v1/thing_types.ts:13:6 - error TSOP3004: ', 'estimated rule cost exceeds budget');
  at(
    'src/api/v1/thing_types.ts:19:6 - error TSOP3004: ',
    'properties[tags].items.x-kubernetes-validations[0].rule: Invalid value',
  );
  at(
    'src/api/v1/gadget_types.ts:8:6 - error TSOP3004: ',
    'properties[code].default: Invalid value: "ab": too short',
  );
  assert.ok(found.every((line) => line.includes('the API server refuses CustomResourceDefinition')));
});

test('the current kubeconfig’s cluster accepts what controller-gen parity cases generate, webhooks too', async () => {
  await using env = await startEnvironment();
  const kubeconfig = { KUBECONFIG: env.admin.kubeconfigPath };
  for (const name of ['validation', 'webhook', 'topology'])
    assert.deepEqual(await refusals(join(fixtures, 'parity', name, 'ts'), 'cluster', kubeconfig), [], name);
});

test('manifests --check --server-dry-run fails with the refusals at their markers; alone it is a usage error', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tsoperator-server-dry-run-'));
  const start = process.cwd();
  try {
    await cp(join(fixtures, 'server', 'refused', 'src'), join(dir, 'src'), { recursive: true });
    process.chdir(dir);
    assert.equal((await runCliCaptured(['manifests'])).code, 0);
    const against = ['--against-file', 'config/crd/bases'];
    const result = await runCliCaptured(['manifests', '--check', '--server-dry-run', ...against]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /src\/api\/v1\/thing_types\.ts:7:6 - error TSOP3004: .*compilation failed/);
    assert.match(result.stderr, /src\/api\/v1\/gadget_types\.ts:8:6 - error TSOP3004: .*too short/);
    const json = await runCliCaptured([
      'manifests',
      '--check',
      '--server-dry-run',
      '--format',
      'json',
      ...against,
    ]);
    assert.equal(json.code, 1, json.stderr);
    const document = JSON.parse(json.stdout) as {
      serverRefusals?: { file: string; line: number; code: string }[];
    };
    assert.ok(
      document.serverRefusals?.some(
        (r) => r.file === 'src/api/v1/gadget_types.ts' && r.line === 8 && r.code === 'TSOP3004',
      ),
      json.stdout,
    );
    const usage = await runCliCaptured(['manifests', '--server-dry-run']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--server-dry-run checks the manifests: use it with --check/);
  } finally {
    process.chdir(start);
    await rm(dir, { recursive: true, force: true });
  }
});

test('the built CLI starts its own control plane for --server-dry-run', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tsoperator-server-dry-run-built-'));
  try {
    await cp(join(fixtures, 'server', 'refused', 'src'), join(dir, 'src'), { recursive: true });
    assert.equal((await runTsoperator(['manifests'], { cwd: dir })).code, 0);
    const result = await runTsoperator(['manifests', '--check', '--server-dry-run'], { cwd: dir });
    assert.equal(result.code, 1, result.stderr);
    assert.doesNotMatch(result.stderr, /Internal error/);
    assert.match(result.stderr, /src\/api\/v1\/gadget_types\.ts:8:6 - error TSOP3004: .*too short/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

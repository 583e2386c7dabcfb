import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startEnvironment } from '../../../src/envtest/index.ts';
import { generateManifests } from '../../../src/gen/manifests.ts';

// The parity fixtures are also examples of what users write: the CRDs we generate from them must
// be accepted by a real API server and become Established, not just match controller-gen's.

const parityRoot = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'parity');

test('the CRDs generated from every parity fixture are Established on the API server', async () => {
  const output = await mkdtemp(join(tmpdir(), 'tsoperator-parity-crds-'));
  try {
    for (const name of await readdir(parityRoot)) {
      for (const file of generateManifests({ root: join(parityRoot, name, 'ts') })) {
        if (!file.path.startsWith('config/crd/')) continue;
        const target = join(output, name, file.path);
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, file.content);
      }
    }
    await using env = await startEnvironment();
    const crds = await env.installCrds([output]);
    assert.deepEqual(crds.map((crd) => crd.metadata?.name).sort(), [
      'archives.storage.example.org',
      'crates.cargo.example.org',
      'cronjobs.tutorial.example.org',
      'harbors.fleet.example.org',
      'notes.notes.example.org',
      'routes.routing.example.org',
      'sailors.crew.example.org',
      'ships.fleet.example.org',
      'stacks.topology.example.org',
      'widgets.validation.example.org',
    ]);
  } finally {
    await rm(output, { recursive: true, force: true });
  }
});

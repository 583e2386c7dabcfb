// Regenerates the sample projects under testdata/, and the book's tutorial projects under
// docs/projects/, with this checkout's CLI, each the way its user makes it (commands, and the edits
// they make to scaffolded files between them). Run with `npm run gen:testdata`; `--out <dir>` writes
// both folders under <dir> instead of the checkout (the freshness test compares the two).
// The envtest binaries (`tsoperator envtest use`) give the kubectl that builds deploy/.
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveAssets } from '../src/envtest/index.ts';
import { PROJECT_FOLDERS } from './testdata/sample-projects.ts';
import { tsoperatorIn } from './testdata/run-tsoperator.ts';

const repo = join(import.meta.dirname, '..');

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string', default: repo } } });
  const out = resolve(values.out);
  // Found in, or built into, the same cache as the tests' control plane.
  const kubectl = join((await resolveAssets()).dir, 'kubectl');
  for (const [folder, projects] of Object.entries(PROJECT_FOLDERS)) {
    for (const [name, generate] of Object.entries(projects)) {
      const dir = join(out, folder, name);
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      await generate({ tsoperator: tsoperatorIn(dir), dir, kubectl });
    }
  }
}

await main();

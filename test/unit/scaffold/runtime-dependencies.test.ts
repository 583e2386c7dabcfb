import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runtimeDependencies } from '../../../src/scaffold/runtime-dependencies.ts';

test('the packages a runtime imports, at the ranges given, node: and relative imports aside', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tsoperator-runtime-'));
  try {
    await mkdir(join(dir, 'client'));
    await writeFile(
      join(dir, 'index.ts'),
      "import { a } from '@scope/pkg/sub';\nimport { b } from './client/b.ts';\n",
    );
    await writeFile(
      join(dir, 'client', 'b.ts'),
      "import { readFile } from 'node:fs';\nconst c = await import('plain');\n",
    );
    await writeFile(join(dir, 'client', 'b.test.ts'), "import { test } from 'only-in-tests';\n");
    const versions = { '@scope/pkg': '^1.0.0', plain: '~2.1.0', unused: '^3.0.0' };

    assert.deepEqual(await runtimeDependencies(dir, versions), { '@scope/pkg': '^1.0.0', plain: '~2.1.0' });
    await assert.rejects(
      runtimeDependencies(dir, { plain: '~2.1.0' }),
      /the runtime imports @scope\/pkg, which is not a dependency of tsoperator/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

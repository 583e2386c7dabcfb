import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

const readme = (dir: string): Promise<string> => readFile(join(dir, 'README.md'), 'utf8');

test('the README calls --domain the domain the API groups are named under, not an API group', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir, { domain: 'example.org' });
    const text = await readme(dir);
    assert.match(
      text,
      /Its domain is `example\.org`, so a group `demo` is the API group `demo\.example\.org`/,
    );
    assert.doesNotMatch(text, /API group is `example\.org`/);
  });
});

test('the README names the copyright owner given with --owner, and leaves the line out without one', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir, { owner: 'Example Org' });
    assert.match(
      await readme(dir),
      /^## License\n\nCopyright Example Org\.\n\nLicensed under the Apache License/m,
    );
  });
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    const text = await readme(dir);
    assert.match(text, /^## License\n\nLicensed under the Apache License/m);
    assert.doesNotMatch(text, /Copyright/);
  });
});

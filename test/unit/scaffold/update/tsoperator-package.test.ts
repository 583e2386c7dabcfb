import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TsoperatorError } from '../../../../src/errors.ts';
import { currentPackage, otherPackage } from '../../../../src/scaffold/update/tsoperator-package.ts';
import { tsoperatorVersion } from '../../../../src/version.ts';
import { usageErrorMatching } from '../../../support/usage-error.ts';

describe('the tsoperator packages an update runs', () => {
  let root = '';
  /** A package folder as `--from` takes it: a package.json and the CLI's entry. */
  const packageFolder = async (name: string, pkg: object, withBin = true): Promise<string> => {
    const dir = join(root, name);
    await mkdir(join(dir, 'bin'), { recursive: true });
    await writeFile(join(dir, 'package.json'), JSON.stringify(pkg));
    if (withBin) await writeFile(join(dir, 'bin', 'tsoperator.js'), '');
    return dir;
  };
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'tsoperator-package-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('this one is the running package, at its version', async () => {
    assert.equal((await currentPackage()).version, tsoperatorVersion());
  });

  test('--from a folder takes it where it is, at the version its package.json says', async () => {
    const dir = await packageFolder('old', { name: 'tsoperator', version: '0.0.9' });
    assert.deepEqual(await otherPackage({ from: dir }), { dir, version: '0.0.9' });
    assert.deepEqual(await otherPackage({ from: dir, version: '0.0.9' }), { dir, version: '0.0.9' });
  });

  test('--from a folder of another version than --from-version is refused', async () => {
    const dir = await packageFolder('other', { name: 'tsoperator', version: '0.0.8' });
    await assert.rejects(
      otherPackage({ from: dir, version: '0.0.9' }),
      usageErrorMatching(/is tsoperator 0\.0\.8, not 0\.0\.9/),
    );
  });

  test('a folder that is not a tsoperator package with its CLI is refused', async () => {
    const foreign = await packageFolder('foreign', { name: 'left-pad', version: '1.0.0' });
    await assert.rejects(
      otherPackage({ from: foreign }),
      (err: unknown) => err instanceof TsoperatorError && /names left-pad/.test(err.message),
    );
    const noCli = await packageFolder('no-cli', { name: 'tsoperator', version: '0.0.9' }, false);
    await assert.rejects(
      otherPackage({ from: noCli }),
      (err: unknown) => err instanceof TsoperatorError && /without its CLI/.test(err.message),
    );
    await assert.rejects(
      otherPackage({ from: join(root, 'missing') }),
      usageErrorMatching(/no such file or folder/),
    );
  });
});

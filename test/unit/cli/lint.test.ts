import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCliCaptured } from '../../support/captured-cli.ts';

/*
 * `tsoperator lint` as a user runs it: a project `init` and `create api` made (plain, and running
 * an image) lints clean; a type breaking a convention fails with file:line:col, the check and a
 * fix; `--format json`; api-lint.yaml turns checks off, and a mistake in it is named.
 */
const FIXTURES = new URL('../../../fixtures/lint', import.meta.url).pathname;

let output = '';
let errors = '';

async function run(cwd: string, ...args: string[]): Promise<number> {
  const back = process.cwd();
  process.chdir(cwd);
  try {
    const result = await runCliCaptured(args);
    output = result.stdout;
    errors = result.stderr;
    return result.code;
  } finally {
    process.chdir(back);
  }
}

/** Runs `tsoperator lint` in `cwd` with `yaml` as its api-lint.yaml, which is removed after. */
async function lintWith(cwd: string, yaml: string): Promise<number> {
  writeFileSync(join(cwd, 'api-lint.yaml'), yaml);
  try {
    return await run(cwd, 'lint');
  } finally {
    rmSync(join(cwd, 'api-lint.yaml'));
  }
}

describe('tsoperator lint', () => {
  let root = '';
  let project = '';
  let broken = '';

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'tsoperator-lint-'));
    project = join(root, 'webapp-operator');
    broken = join(root, 'broken');
    cpSync(join(FIXTURES, 'commentstart'), broken, { recursive: true });
    mkdirSync(project);
    assert.equal(
      await run(project, 'init', '--domain', 'example.org', '--project-name', 'webapp-operator'),
      0,
    );
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('says there is nothing to lint before the first API', async () => {
    assert.equal(await run(project, 'lint'), 0);
    assert.equal(output, 'No API types under src/api: nothing to lint.\n');
  });

  it('passes on what init and create api scaffold, with and without --image', async () => {
    const api = ['create', 'api', '--group', 'demo', '--version', 'v1'];
    assert.equal(await run(project, ...api, '--kind', 'WebApp'), 0, errors);
    assert.equal(
      await run(project, ...api, '--kind', 'Cache', '--image', 'memcached:1.6', '--port', '11211'),
      0,
      errors,
    );
    assert.equal(await run(project, ...api, '--kind', 'Backup', '--no-namespaced'), 0, errors);
    assert.equal(await run(project, 'lint'), 0, output);
    assert.match(output, /^\d+ API types follow the API conventions \(14 checks\)\.\n$/);
  });

  it('fails on a convention broken, with file:line:col, the check and its fix', async () => {
    assert.equal(await run(broken, 'lint'), 1);
    assert.match(
      output,
      /^src\/api\/v1\/fail\.types\.ts:3:3 - error commentstart: godoc for field FailSpec\.replicas should start with 'replicas \.\.\.'\n {2}fix: replace the first word with `replicas`$/m,
    );
    assert.match(output, /Found \d+ errors and 0 warnings\.\n$/);
    assert.match(
      errors,
      /^Error: \d+ API convention errors: fix them as each fix says, or turn the check off in api-lint\.yaml/,
    );
    assert.doesNotMatch(errors, /\n\s+at /);
  });

  it('--format json lists the findings', async () => {
    assert.equal(await run(broken, 'lint', '--format', 'json'), 1);
    const report = JSON.parse(output) as {
      findings: { file: string; line: number; column: number; check: string; fix: string }[];
      errors: number;
    };
    assert.ok(report.errors > 0);
    assert.deepEqual(report.findings[0], {
      file: 'src/api/v1/fail.types.ts',
      line: 3,
      column: 3,
      check: 'commentstart',
      severity: 'error',
      message: "godoc for field FailSpec.replicas should start with 'replicas ...'",
      fix: 'replace the first word with `replicas`',
    });
  });

  it('api-lint.yaml turns a check off', async () => {
    assert.equal(
      await lintWith(broken, 'linters:\n  disable: [commentstart, optionalorrequired]\n'),
      0,
      output,
    );
    assert.doesNotMatch(output, /commentstart/);
  });

  it('a check api-lint.yaml names that does not exist is an error, with the checks there are', async () => {
    assert.equal(await lintWith(broken, 'linters:\n  enable: [nofloat]\n'), 1);
    assert.match(
      errors,
      /api-lint\.yaml: linters\.enable: there is no check "nofloat"; the checks are commentstart, /,
    );
  });

  it("takes a settings block copied from a Kubebuilder project's .golangci.yml, noting what only Go has", async () => {
    const yaml = [
      'linters:',
      '  enable: [nobools]',
      '  disable: [commentstart, optionalorrequired, nomaps]',
      'lintersConfig:',
      '  conditions:',
      '    isFirstField: Warn',
      '    usePatchStrategy: Ignore',
      '    useProtobuf: Ignore',
      '  optionalfields:',
      '    pointers:',
      '      preference: WhenRequired',
      '',
    ];
    assert.equal(await lintWith(broken, yaml.join('\n')), 0, errors);
    assert.equal(
      errors,
      [
        'api-lint.yaml: conditions.useProtobuf has no meaning for TypeScript types; ignored',
        'api-lint.yaml: conditions.usePatchStrategy has no meaning for TypeScript types; ignored',
        'api-lint.yaml: optionalfields.pointers.preference has no meaning for TypeScript types; ignored',
        '',
      ].join('\n'),
    );
  });

  it('enabling a kube-api-linter check tsoperator does not have is an error that says so', async () => {
    assert.equal(await lintWith(broken, 'linters:\n  enable: [nomaps]\n'), 1);
    assert.match(
      errors,
      /api-lint\.yaml: linters\.enable: tsoperator does not have kube-api-linter's check "nomaps" yet; remove it from the list/,
    );
  });

  it('--config reads another file; --format takes text or json only', async () => {
    writeFileSync(join(broken, 'strict.yaml'), 'linters:\n  disable: ["*"]\n  enable: [nobools]\n');
    assert.equal(await run(broken, 'lint', '--config', 'strict.yaml'), 0, output);
    assert.equal(await run(broken, 'lint', '--config', 'missing.yaml'), 1);
    assert.match(errors, /lint configuration missing\.yaml does not exist/);
    assert.equal(await run(broken, 'lint', '--format', 'xml'), 2);
  });
});

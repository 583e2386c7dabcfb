import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, after, describe, it } from 'node:test';
import { execa } from 'execa';
import { repoRoot } from '../../support/cli.ts';

const referenceDir = join(repoRoot, 'docs', 'reference');
const script = join(repoRoot, 'scripts', 'gen-docs-reference.ts');

/** Every file of `dir`: name → content. */
async function pages(dir: string): Promise<Map<string, string>> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.md')).sort();
  return new Map(
    await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name), 'utf8')] as const)),
  );
}

// The reference pages are generated from the code they describe: a marker's help, a command's
// option or a metric changed without regenerating them fails here, not in the reader's hands.
describe('docs/reference', () => {
  let out: string;
  let fresh: Map<string, string>;

  before(async () => {
    out = await mkdtemp(join(tmpdir(), 'tsoperator-docs-reference-'));
    await execa(process.execPath, [script, '--out', out], { cwd: repoRoot });
    fresh = await pages(out);
  });
  after(() => rm(out, { recursive: true, force: true }));

  it('is what `node scripts/gen-docs-reference.ts` generates now', async () => {
    const committed = await pages(referenceDir);
    const stale = [...new Set([...fresh.keys(), ...committed.keys()])]
      .sort()
      .filter((name) => fresh.get(name) !== committed.get(name))
      .map(
        (name) =>
          `${fresh.has(name) ? (committed.has(name) ? 'changed' : 'not committed') : 'no longer generated'}: ${name}`,
      );
    assert.deepEqual(stale, [], 'run `node scripts/gen-docs-reference.ts` and commit docs/reference/');
  });

  it('opens each page with the generated-page note and ends it with where to read next', () => {
    for (const [name, text] of fresh) {
      const [title, , note] = text.split('\n');
      assert.match(title ?? '', /^# /, name);
      assert.match(note ?? '', /gen-docs-reference\.ts.*do not edit this page by hand/, name);
      assert.match(text, /\nRead next: .+\n$/, name);
    }
  });

  it('lists the markers with both spellings of an unnamed argument', () => {
    const markers = fresh.get('markers.md') ?? '';
    assert.match(markers, /`\+kubebuilder:default=<any>` or `\+kubebuilder:default:=<any>`/);
    assert.match(markers, /### `\+kubebuilder:rbac`[^#]*`verbs`/);
    assert.match(markers, /### `\+kubebuilder:validation:Minimum`\n\n[^\n]+\n\n- Stands on: field, type/);
  });

  it('lists the commands with their options', () => {
    const commands = fresh.get('commands.md') ?? '';
    assert.match(commands, /### `tsoperator create api`[^#]*\| `--no-resource` +\|/);
    assert.match(commands, /\| `--domain <domain>` +\| [^|]+\| `"my\.domain"` +\|/);
  });

  it('lists every diagnostic code with what it means', () => {
    const errors = fresh.get('errors.md') ?? '';
    assert.match(errors, /## TSOP1001\n\n`unknownMarker`: \S/);
    assert.match(errors, /error TSOP1003: invalid value \(want number\)/);
  });

  it("lists the runtime's metrics with their type and labels", () => {
    const metrics = fresh.get('metrics.md') ?? '';
    assert.match(
      metrics,
      /\| `controller_runtime_reconcile_total` +\| counter +\| `controller`, `result` +\|/,
    );
    assert.match(metrics, /\| `workqueue_queue_duration_seconds` +\| histogram +\| `name`, `controller` +\|/);
    assert.match(metrics, /\| `rest_client_requests_total` +\| counter +\|/);
  });
});

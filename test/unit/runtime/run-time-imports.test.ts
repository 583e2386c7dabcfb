import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const ROOT = new URL('../../../', import.meta.url).pathname;

/** Imports `entry` in a fresh Node and returns the URL of every module it loaded. */
async function modulesLoadedBy(entry: string): Promise<string[]> {
  const script = `
    import { registerHooks } from 'node:module';
    const loaded = [];
    registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); loaded.push(r.url); return r; } });
    await import(${JSON.stringify(entry)});
    process.stdout.write(JSON.stringify(loaded));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as string[];
}

const fromClientNode = (urls: readonly string[]): string[] =>
  urls.filter((u) => u.includes('/node_modules/@kubernetes/client-node/'));

// Loading client-node's generated API costs about a second and 70 MB of RSS: the runtime, and the
// operator a generated project runs, use its models as types only.
describe('what the runtime loads at run time', () => {
  it('loads nothing of @kubernetes/client-node', async () => {
    const loaded = await modulesLoadedBy(join(ROOT, 'src/runtime/index.ts'));
    assert.ok(loaded.length > 50, `the runtime was loaded (${loaded.length} modules)`);
    assert.deepEqual(fromClientNode(loaded), []);
  });

  it("nor do a generated project's controllers and webhooks", async () => {
    const project = join(ROOT, 'testdata/project-v4/src');
    for (const folder of ['controllers', 'webhooks']) {
      for (const file of (await readdir(join(project, folder), { recursive: true })).filter((f) =>
        f.endsWith('.ts'),
      )) {
        const loaded = await modulesLoadedBy(join(project, folder, file));
        assert.deepEqual(fromClientNode(loaded), [], `${folder}/${file}`);
      }
    }
  });
});

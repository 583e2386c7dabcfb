import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';

const ROOT = new URL('../../../', import.meta.url).pathname;

/** Imports `entry` in a fresh Node: the URL of every module it loaded, and the built-ins. */
async function modulesLoadedBy(entry: string): Promise<{ urls: string[]; builtins: string[] }> {
  const script = `
    import { registerHooks } from 'node:module';
    const urls = [];
    registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); urls.push(r.url); return r; } });
    await import(${JSON.stringify(entry)});
    const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13));
    process.stdout.write(JSON.stringify({ urls, builtins }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as { urls: string[]; builtins: string[] };
}

const fromClientNode = (urls: readonly string[]): string[] =>
  urls.filter((u) => u.includes('/node_modules/@kubernetes/client-node/'));

// Loading client-node's generated API costs about a second and 70 MB of RSS: the runtime, and the
// operator a generated project runs, use its models as types only.
describe('what the runtime loads at run time', () => {
  it('loads nothing of @kubernetes/client-node', async () => {
    const { urls } = await modulesLoadedBy(join(ROOT, 'src/runtime/index.ts'));
    assert.ok(urls.length > 50, `the runtime was loaded (${urls.length} modules)`);
    assert.deepEqual(fromClientNode(urls), []);
  });

  // Each costs megabytes of RSS: prom-client's index loads @opentelemetry/api (with its default
  // metrics), an ES import of node:http loads HTTP/2 and zlib (with undici), and only a server
  // that enables HTTP/2 needs it.
  it("loads neither prom-client's index, @opentelemetry/api, node:http2 nor zlib", async () => {
    const { urls, builtins } = await modulesLoadedBy(join(ROOT, 'src/runtime/index.ts'));
    const unwanted = urls.filter((u) => /\/node_modules\/(@opentelemetry\/|prom-client\/index\.js)/.test(u));
    assert.deepEqual(unwanted, []);
    assert.deepEqual(
      builtins.filter((b) => b === 'http2' || b === 'zlib'),
      [],
    );
  });

  it("nor do a generated project's controllers and webhooks", async () => {
    const project = join(ROOT, 'testdata/project-v4/src');
    for (const folder of ['controllers', 'webhooks']) {
      for (const file of (await readdir(join(project, folder), { recursive: true })).filter((f) =>
        f.endsWith('.ts'),
      )) {
        const { urls } = await modulesLoadedBy(join(project, folder, file));
        assert.deepEqual(fromClientNode(urls), [], `${folder}/${file}`);
      }
    }
  });
});

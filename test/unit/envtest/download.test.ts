import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveAssets } from '../../../src/envtest/assets.ts';
import { platform } from '../../../src/envtest/paths.ts';
import { TsoperatorError } from '../../../src/errors.ts';

const VERSION = '1.36.3';
const ARCHIVE = `envtest-v${VERSION}-${platform().os}-${platform().arch}.tar.gz`;

/** A fake envtest release archive: the real layout, with tiny scripts as binaries. */
function buildArchive(dir: string): Buffer {
  const bin = join(dir, 'controller-tools', 'envtest');
  mkdirSync(bin, { recursive: true });
  for (const name of ['etcd', 'kube-apiserver', 'kubectl'])
    writeFileSync(join(bin, name), `#!/bin/sh\necho ${name}\n`, { mode: 0o755 });
  execFileSync('tar', ['-czf', join(dir, ARCHIVE), '-C', dir, 'controller-tools']);
  return readFileSync(join(dir, ARCHIVE));
}

describe('downloading the envtest release archive', () => {
  let server: Server;
  let base: string;
  let archive: Buffer;
  let work: string;
  const indexes = new Map<string, string>();
  /** The `/held/` archive is answered once this is settled. */
  const held = latch();

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'tsoperator-download-test-'));
    archive = buildArchive(work);
    server = createServer((req, res) => {
      if (req.url === `/${ARCHIVE}`) return void res.end(archive);
      if (req.url === `/held/${ARCHIVE}`) return void held.promise.then(() => res.end(archive));
      // Sends the headers and a first chunk, then nothing more.
      if (req.url === `/stalled/${ARCHIVE}`) return void res.write(archive.subarray(0, 100));
      const index = indexes.get(req.url ?? '');
      if (index !== undefined) return void res.end(index);
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const index = (hash: string, path = ''): string =>
      `releases:\n  v${VERSION}:\n    ${ARCHIVE}:\n      hash: ${hash}\n      selfLink: ${base}${path}/${ARCHIVE}\n`;
    const digest = createHash('sha512').update(archive).digest('hex');
    indexes.set('/good.yaml', index(digest));
    indexes.set('/held.yaml', index(digest, '/held'));
    indexes.set('/stalled.yaml', index(digest, '/stalled'));
    indexes.set('/bad.yaml', index('0'.repeat(128)));
    indexes.set('/empty.yaml', 'releases: {}\n');
  });
  after(() => {
    server.closeAllConnections();
    server.close();
    rmSync(work, { recursive: true, force: true });
  });

  const resolveWith = (
    cacheDir: string,
    indexPath: string,
    onProgress?: (line: string) => void,
    signal?: AbortSignal,
  ) =>
    resolveAssets({
      version: VERSION,
      cacheDir,
      env: {},
      indexUrl: `${base}${indexPath}`,
      allowBuild: false,
      signal,
      ...(onProgress ? { onProgress } : {}),
    });

  it('ends a download when its signal aborts, leaving neither binaries nor the lock behind', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'tsoperator-cache-'));
    try {
      const controller = new AbortController();
      const resolving = resolveWith(
        cacheDir,
        '/stalled.yaml',
        (line) => {
          if (line.startsWith('downloading ')) controller.abort(new TsoperatorError('interrupted'));
        },
        controller.signal,
      );
      await assert.rejects(resolving, /^TsoperatorError: interrupted$/);
      assert.deepEqual(readdirSync(join(cacheDir, 'envtest', 'k8s')), []);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('reports the download as it goes: the archive, its tenths, the binaries unpacked', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'tsoperator-cache-'));
    try {
      const lines: string[] = [];
      await resolveWith(cacheDir, '/good.yaml', (line) => lines.push(line));
      assert.equal(lines[0], `downloading ${base}/${ARCHIVE}`);
      assert.match(lines.at(-2) ?? '', /^ {2}\d+\.\d of \d+\.\d MB \(100%\)$/);
      assert.match(lines.at(-1) ?? '', /^unpacked etcd, kube-apiserver, kubectl into /);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it("while another resolve holds the cache, says it waits and shows that one's progress", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'tsoperator-cache-'));
    try {
      const firstDownloading = latch();
      const first = resolveWith(cacheDir, '/held.yaml', (line) => {
        if (line.startsWith('downloading ')) firstDownloading.open();
      });
      await firstDownloading.promise;
      const relayed = latch();
      const lines: string[] = [];
      const second = resolveWith(cacheDir, '/held.yaml', (line) => {
        lines.push(line);
        if (line.startsWith('downloading ')) relayed.open();
      });
      await relayed.promise;
      held.open();
      assert.equal((await first).source, 'download');
      assert.equal((await second).source, 'cache');
      assert.deepEqual(lines.slice(0, 2), [
        `waiting for process ${process.pid} to download or build the Kubernetes ${VERSION} binaries:`,
        `downloading ${base}/held/${ARCHIVE}`,
      ]);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('verifies the checksum, unpacks the binaries into the cache, then answers from the cache', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'tsoperator-cache-'));
    try {
      const assets = await resolveWith(cacheDir, '/good.yaml');
      assert.equal(assets.source, 'download');
      assert.deepEqual(readdirSync(assets.dir).sort(), ['etcd', 'kube-apiserver', 'kubectl']);
      assert.deepEqual(assets.missing, ['kube-controller-manager', 'kube-scheduler', 'kwok']);
      assert.equal(execFileSync(join(assets.dir, 'kubectl'), { encoding: 'utf8' }), 'kubectl\n');
      assert.deepEqual(await resolveWith(cacheDir, '/good.yaml'), {
        dir: assets.dir,
        source: 'cache',
        missing: ['kube-controller-manager', 'kube-scheduler', 'kwok'],
      });
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('refuses an archive whose checksum does not match and leaves nothing in the cache', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'tsoperator-cache-'));
    try {
      await assert.rejects(resolveWith(cacheDir, '/bad.yaml'), (err: unknown) => {
        assert.ok(err instanceof TsoperatorError);
        assert.match(
          err.message,
          /^Checksum mismatch for .*: expected sha512 0{128}, got [0-9a-f]{128}\. The archive was discarded/,
        );
        return true;
      });
      const k8s = join(cacheDir, 'envtest', 'k8s');
      assert.deepEqual(existsSync(k8s) ? readdirSync(k8s) : [], []);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('says what it tried when the version is not listed and building is off', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'tsoperator-cache-'));
    try {
      await assert.rejects(resolveWith(cacheDir, '/empty.yaml'), (err: unknown) => {
        assert.ok(err instanceof TsoperatorError);
        assert.match(
          err.message,
          new RegExp(`No control-plane binaries for Kubernetes ${VERSION}\\. Tried:`),
        );
        assert.match(err.message, new RegExp(`download: ${ARCHIVE} is not listed in`));
        assert.match(err.message, /build: turned off \(--no-build\)/);
        return true;
      });
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('treats an unreachable index as unavailable, not as a crash', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'tsoperator-cache-'));
    try {
      await assert.rejects(
        resolveWith(cacheDir, '/missing.yaml'),
        /download: could not read .*missing\.yaml \(HTTP 404\)/,
      );
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

/** A promise that settles when `open()` is called. */
function latch(): { promise: Promise<unknown>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise((resolve) => (open = () => resolve(undefined)));
  return { promise, open };
}

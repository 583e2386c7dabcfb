import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { downloadMeter } from '../../../src/envtest/download.ts';
import { GoBuildCounts } from '../../../src/envtest/go-build-counts.ts';
import { ProgressFollower, sharedProgress } from '../../../src/envtest/shared-progress.ts';

const MB = 1024 * 1024;

it('counts the modules go build downloads and the packages it compiles, across chunk boundaries', () => {
  const counts = new GoBuildCounts();
  assert.equal(counts.summary(), '0 packages compiled');
  counts.add('internal/goarch\ninternal/by');
  counts.add('tealite\n');
  assert.equal(counts.summary(), '2 packages compiled');
  counts.add('go: downloading k8s.io/api v0.37.2\ngo: finding module for package x\nk8s.io/api/core/v1\n');
  assert.equal(counts.summary(), '1 module downloaded, 3 packages compiled');
});

it('reports a download at each tenth of its length', () => {
  const lines: string[] = [];
  const meter = downloadMeter(100 * MB, (line) => lines.push(line));
  for (let sent = 0; sent < 100; sent += 4) meter(4 * MB);
  assert.equal(lines.length, 10);
  assert.equal(lines[0], '  12.0 of 100.0 MB (12%)');
  assert.equal(lines.at(-1), '  100.0 of 100.0 MB (100%)');
});

it('reports a download of unknown length every 10 MB', () => {
  const lines: string[] = [];
  const meter = downloadMeter(Number.NaN, (line) => lines.push(line));
  for (let chunk = 0; chunk < 5; chunk++) meter(5 * MB);
  assert.deepEqual(lines, ['  10.0 MB', '  20.0 MB']);
});

it('passes the lines one process reports on to another that follows them, each once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsoperator-progress-'));
  try {
    const file = join(dir, 'progress');
    const own: string[] = [];
    const followed: string[] = [];
    const report = sharedProgress(file, (line) => own.push(line));
    const follower = new ProgressFollower(file, (line) => followed.push(line));
    await follower.poll();
    report('building kube-apiserver');
    report('  kube-apiserver: 10 packages compiled, 20 s');
    await follower.poll();
    report('built kube-apiserver in 90 s');
    await follower.poll();
    await follower.poll();
    assert.deepEqual(followed, own);
    assert.equal(followed.length, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

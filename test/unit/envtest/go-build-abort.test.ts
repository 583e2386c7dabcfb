import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildFromGo } from '../../../src/envtest/go-build.ts';
import { isAlive } from '../../../src/envtest/process-alive.ts';

// A real `go build` of kwok (its module is in Go's module cache after the suite's first
// `envtest use`) whose every tool runs through a -toolexec wrapper that records its pid and hangs:
// the build is aborted while those children run.
describe('buildFromGo, aborted', () => {
  const work = mkdtempSync(join(tmpdir(), 'tsoperator-go-abort-'));
  const pids = join(work, 'tool-pids');
  const savedFlags = process.env['GOFLAGS'];
  after(() => {
    if (savedFlags === undefined) delete process.env['GOFLAGS'];
    else process.env['GOFLAGS'] = savedFlags;
    rmSync(work, { recursive: true, force: true });
  });

  const toolPids = (): number[] =>
    existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [];

  it('ends the compilers go started and leaves no work folder', { timeout: 300_000 }, async () => {
    const wrapper = join(work, 'slow-tool');
    writeFileSync(wrapper, `#!/bin/sh\necho $$ >> '${pids}'\nexec sleep 300\n`, { mode: 0o755 });
    process.env['GOFLAGS'] = `-toolexec=${wrapper}`;
    const cache = join(work, 'cache');
    const dest = join(cache, 'bin');
    mkdirSync(cache);
    const controller = new AbortController();
    const building = buildFromGo({
      version: '1.37.2',
      dest,
      workRoot: join(cache, 'build'),
      only: ['kwok'],
      onProgress: () => undefined,
      signal: controller.signal,
    });
    while (toolPids().length === 0) await sleep(100);
    controller.abort(new Error('interrupted'));
    await assert.rejects(building, /interrupted/);

    const started = toolPids();
    assert.ok(started.length > 0);
    for (let i = 0; i < 50 && started.some(isAlive); i++) await sleep(100);
    assert.deepEqual(started.filter(isAlive), [], 'no tool go started survives');
    assert.deepEqual(
      readdirSync(cache).filter((name) => name.startsWith('.build-')),
      [],
      'the staging folder, and the go-build folders in it, are gone',
    );
    assert.equal(existsSync(dest), false);
  });
});

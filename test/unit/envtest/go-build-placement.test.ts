import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildFromGo } from '../../../src/envtest/go-build.ts';

// A `go` on PATH that fetches a stand-in k8s.io/kubernetes, "builds" by writing a script to its
// -o path, and cannot fetch kwok: the build of kwok fails after kube-scheduler was built.
describe('buildFromGo, when kwok fails', () => {
  const work = mkdtempSync(join(tmpdir(), 'tsoperator-go-placement-'));
  const module = join(work, 'kubernetes');
  const savedPath = process.env['PATH'];

  before(() => {
    const bin = join(work, 'bin');
    mkdirSync(bin);
    mkdirSync(module);
    writeFileSync(join(module, 'go.mod'), 'module k8s.io/kubernetes\n');
    const listing = JSON.stringify({ Dir: module, GoMod: join(module, 'go.mod') });
    writeFileSync(
      join(bin, 'go'),
      [
        '#!/bin/sh',
        `case "$1 $2 $4" in "mod download k8s.io/kubernetes@"*) echo '${listing}'; exit 0;; esac`,
        'if [ "$1" = build ]; then',
        '  while [ $# -gt 0 ]; do [ "$1" = -o ] && out="$2"; shift; done',
        `  printf '#!/bin/sh\\n' > "$out"; exit 0`,
        'fi',
        'echo offline >&2; exit 1',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    process.env['PATH'] = `${bin}:${savedPath ?? ''}`;
  });
  after(() => {
    process.env['PATH'] = savedPath;
    rmSync(work, { recursive: true, force: true });
  });

  it('keeps the Kubernetes binaries it built before', async () => {
    const dest = join(work, 'cache', 'bin');
    mkdirSync(join(work, 'cache'));
    await assert.rejects(
      buildFromGo({
        version: '1.37.2',
        dest,
        workRoot: join(work, 'cache', 'build'),
        only: ['kube-scheduler', 'kwok'],
        onProgress: () => undefined,
      }),
      /^TsoperatorError: kwok .* could not be fetched .*\(offline\)/,
    );
    assert.equal(readFileSync(join(dest, 'kube-scheduler'), 'utf8'), '#!/bin/sh\n');
    assert.equal(existsSync(join(dest, 'kwok')), false);
  });
});

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CertificateAuthority, type CertKeyPair } from '../../../src/runtime/tls/certificate-authority.ts';
import { CertificateWatcher } from '../../../src/runtime/tls/certificate-watcher.ts';

const ca = CertificateAuthority.create('test-ca');
const issue = (): CertKeyPair => ca.issue({ commonName: 'metrics', usage: 'server', hosts: ['localhost'] });

async function writePair(dir: string, pair: CertKeyPair): Promise<void> {
  await writeFile(join(dir, 'tls.key'), pair.key);
  await writeFile(join(dir, 'tls.crt'), pair.cert);
}

describe('CertificateWatcher', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'certs-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('fails to start without a pair, or with a key that is not the certificate’s', async () => {
    await assert.rejects(CertificateWatcher.start(dir), /ENOENT/);
    await writeFile(join(dir, 'tls.crt'), issue().cert);
    await writeFile(join(dir, 'tls.key'), issue().key);
    await assert.rejects(CertificateWatcher.start(dir), /is not the key of the certificate/);
  });

  it('serves the pair of the folder and the new one once the folder changes', async () => {
    const first = issue();
    await writePair(dir, first);
    const watcher = await CertificateWatcher.start(dir);
    try {
      assert.deepEqual(watcher.current(), first);
      const second = issue();
      const changed = new Promise<CertKeyPair>((resolve) => {
        watcher.onChange((pair) => {
          if (pair.cert === second.cert) resolve(pair);
        });
      });
      await writePair(dir, second);
      assert.deepEqual(await changed, second);
      assert.deepEqual(watcher.current(), second);
    } finally {
      watcher.close();
    }
  });

  it('keeps the previous pair while the folder holds a mismatched one', async () => {
    const good = issue();
    await writePair(dir, good);
    const watcher = await CertificateWatcher.start(dir, { certName: 'tls.crt', keyName: 'tls.key' });
    try {
      await writeFile(join(dir, 'tls.crt'), issue().cert);
      await watcher.reload();
      assert.deepEqual(watcher.current(), good);
    } finally {
      watcher.close();
    }
  });
});

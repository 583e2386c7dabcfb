// Started by failed-start.test.ts: starts kwok from the folder in argv[2], which never turns ready,
// and is killed while it waits.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKwok } from '../../../../src/envtest/kwok.ts';
import { Reaper } from '../../../../src/envtest/process.ts';

const binDir = process.argv[2] ?? '';
const dir = await mkdtemp(join(tmpdir(), 'tsoperator-kwok-hang-'));
const reaper = new Reaper();
reaper.watchDir(dir);
await startKwok({ binDir, kubeconfigPath: join(dir, 'none.kubeconfig'), dir, reaper });

// Started by reaper.test.ts: starts a control plane, reports it, then waits to be killed.
import { startEnvironment } from '../../../../src/envtest/index.ts';

const env = await startEnvironment();
process.stdout.write(`${JSON.stringify({ pids: env.pids, dir: env.dir })}\n`);
setInterval(() => undefined, 60_000);

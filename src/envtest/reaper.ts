/**
 * A tiny watchdog process, one per test control plane. Its parent sends it `pid <n>` and
 * `dir <path>` lines on stdin. When stdin closes without `release` (the parent died, even by
 * SIGKILL), it kills those processes and removes those folders, so an interrupted test run leaves
 * nothing behind.
 */
import { rmSync } from 'node:fs';
import { isAlive } from './process-alive.ts';
import { signalGroup } from './process-group.ts';

const pids = new Set<number>();
const dirs = new Set<string>();
let released = false;
let buffered = '';

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffered += chunk;
  let newline = buffered.indexOf('\n');
  while (newline >= 0) {
    handle(buffered.slice(0, newline));
    buffered = buffered.slice(newline + 1);
    newline = buffered.indexOf('\n');
  }
});
process.stdin.on('end', () => {
  if (!released) reap();
  process.exit(0);
});

function handle(line: string): void {
  const [verb, ...rest] = line.split(' ');
  const arg = rest.join(' ');
  if (verb === 'pid') pids.add(Number(arg));
  else if (verb === 'unpid') pids.delete(Number(arg));
  else if (verb === 'dir') dirs.add(arg);
  else if (verb === 'release') released = true;
}

function signalAll(signal: NodeJS.Signals): void {
  // Each child leads its own process group: kill the group so its children go too.
  for (const pid of pids) if (!signalGroup(pid, signal)) pids.delete(pid);
}

function reap(): void {
  signalAll('SIGTERM');
  const deadline = Date.now() + 5000;
  while (pids.size > 0 && Date.now() < deadline) {
    for (const pid of pids) if (!isAlive(pid)) pids.delete(pid);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
  signalAll('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

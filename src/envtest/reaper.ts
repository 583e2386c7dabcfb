/**
 * A tiny watchdog process, one per test control plane. Its parent sends it `pid <n>` and
 * `dir <path>` lines on stdin. When stdin closes without `release` (the parent died, even by
 * SIGKILL), it kills those processes and removes those folders, so an interrupted test run leaves
 * nothing behind.
 */
import { rmSync } from 'node:fs';
import { isAlive } from './process-alive.ts';
import { signalGroup } from './process-group.ts';
import { processStartTime } from './process-identity.ts';

/**
 * Each watched pid with its start time, read by the parent when it spawned the process. A
 * process that ended long before the parent died may have given its number to another (pid_max is
 * 32768 on many machines, and a test run spawns thousands): only a pid that still names the process
 * it was is signalled, never an unrelated control plane that got the number.
 */
const pids = new Map<number, string | undefined>();
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
  if (verb === 'pid') {
    // `pid <n> <start time>`: the parent read the start time when it spawned the process.
    const [pid = '', started] = rest;
    pids.set(Number(pid), started || processStartTime(Number(pid)));
  } else if (verb === 'unpid') pids.delete(Number(arg));
  else if (verb === 'dir') dirs.add(arg);
  else if (verb === 'release') released = true;
}

function signalAll(signal: NodeJS.Signals): void {
  for (const [pid, started] of pids) {
    // Gone, or its number now names another process (where /proc tells start times apart).
    const same = started === undefined || processStartTime(pid) === started;
    // Each child leads its own process group: kill the group so its children go too.
    if (!same || !signalGroup(pid, signal)) pids.delete(pid);
  }
}

function reap(): void {
  signalAll('SIGTERM');
  const deadline = Date.now() + 5000;
  while (pids.size > 0 && Date.now() < deadline) {
    for (const pid of pids.keys()) if (!isAlive(pid)) pids.delete(pid);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
  signalAll('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * Stops `child` as the kubelet stops a container: SIGTERM, then SIGKILL once `graceMs` has passed
 * without it exiting, so that a manager stuck in its shutdown cannot hold the suite.
 */
export async function stopProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(kill);
  }
}

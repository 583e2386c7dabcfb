import { join } from 'node:path';
import { COMPILE_CACHE_PRELOAD } from '../support/compile-cache-preload.ts';
import type { Contender } from './contender.ts';

/**
 * The contenders, with the same concurrency and the same client rate limits: none (the
 * TypeScript client has no client-side limiter; the Go side runs with QPS -1, which turns
 * client-go's off). To benchmark a generated project instead of bench/operator/ts, replace the
 * `tsoperator` entry's args with `() => ['dist/main.js']` and a `cwd: projectDir` where
 * `npm run build` has run (its controller must then run with the same `maxConcurrentReconciles`;
 * the default is 1).
 */
export function contenders(
  here: string,
  goBinary: string,
  operatorBundle: string,
  concurrency: number,
  nodeFlags: readonly string[] = [],
): Contender[] {
  const workers = String(concurrency);
  // As a generated project's `npm start` runs: type stripping with the compile cache, which
  // run.ts fills before the first round.
  const node = (script: string, extra: (ns: string) => string[]): Contender['args'] => {
    return (ns) => [
      ...process.execArgv,
      ...nodeFlags,
      '--import',
      COMPILE_CACHE_PRELOAD,
      join(here, 'ts', script),
      '--concurrency',
      workers,
      ...extra(ns),
    ];
  };
  return [
    {
      name: 'raw-loop-go',
      command: goBinary,
      args: (ns) => ['--mode', 'raw', '--namespace', ns, '--concurrency', workers],
      runsUntilStopped: false,
    },
    {
      name: 'raw-loop-ts',
      command: process.execPath,
      args: node('raw-write-loop.ts', (ns) => ['--namespace', ns]),
      runsUntilStopped: false,
    },
    {
      name: 'controller-runtime',
      command: goBinary,
      args: () => ['--mode', 'operator', '--concurrency', workers],
      runsUntilStopped: true,
    },
    {
      // As the image runs it: the bundle `npm run build:dist` makes (run.ts builds it first).
      name: 'tsoperator',
      command: process.execPath,
      args: () => [...process.execArgv, ...nodeFlags, operatorBundle, '--concurrency', workers],
      runsUntilStopped: true,
    },
    {
      // The same bundle with the transport kept on HTTP/1.1: the transport before HTTP/2.
      name: 'tsoperator-http1',
      command: process.execPath,
      args: () => [...process.execArgv, ...nodeFlags, operatorBundle, '--concurrency', workers, '--http1'],
      runsUntilStopped: true,
    },
    {
      name: 'tsoperator-npm-start',
      command: process.execPath,
      args: node('webapp-operator.ts', () => []),
      runsUntilStopped: true,
    },
  ];
}

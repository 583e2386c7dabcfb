import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Contender } from '../operator/contender.ts';
import { contenders } from '../operator/contenders.ts';
import { goPeer } from './go-peer.ts';
import { bundleWebAppOperator } from './operator-bundle.ts';

/** The concurrency every operator runs with, as in bench/operator. */
const CONCURRENCY = 10;

/**
 * The WebApp operators of bench/operator that run until stopped, those named in `only`:
 * controller-runtime, tsoperator (the bundle the image runs), tsoperator-http1, and, given an
 * earlier revision's bundle (`bundleOperator` of its bench/operator/ts/webapp-operator.ts),
 * tsoperator-before.
 */
export async function webAppOperators(only: readonly string[], beforeBundle?: string): Promise<Contender[]> {
  const operatorDir = fileURLToPath(new URL('../operator', import.meta.url));
  const bundle = await bundleWebAppOperator();
  const concurrency = String(CONCURRENCY);
  const before: Contender[] = beforeBundle
    ? [
        {
          name: 'tsoperator-before',
          command: process.execPath,
          args: () => [...process.execArgv, beforeBundle, '--concurrency', concurrency],
          runsUntilStopped: true,
        },
      ]
    : [];
  return [
    ...contenders(operatorDir, goPeer(join(operatorDir, 'go'), 'operator'), bundle, CONCURRENCY),
    ...before,
  ].filter((c) => c.runsUntilStopped && only.includes(c.name));
}

import type { KubeConfig } from '@kubernetes/client-node';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Contender } from '../operator/contender.ts';
import { severableOperator } from './silenced-round.ts';
import type { WatchAudit } from './watch-audit.ts';

/** What one operator opened while nothing changed in the cluster. */
export interface QuietRun {
  readonly name: string;
  readonly connections: number;
  readonly watches: number;
}

/** Time for every operator to start and sync before the quiet period is counted. */
const WARM_UP_MS = 30_000;

/**
 * Runs every contender at once, each behind its own proxy, on a cluster where nothing changes, and
 * counts the connections each opens and the watches each sends over `periodMs`: the churn a
 * health check or a watch deadline would cost. A watch is told apart by its user agent: Go's names
 * the peer's binary, ours sends none (the API server's own loopback watches name kube-apiserver),
 * so at most one TypeScript contender may run here.
 */
export async function quietPeriod(
  contenders: readonly Contender[],
  server: string,
  kubeConfig: KubeConfig,
  audit: WatchAudit,
  periodMs: number,
): Promise<QuietRun[]> {
  const operators = await Promise.all(contenders.map((c) => severableOperator(c, server, kubeConfig)));
  try {
    await sleep(WARM_UP_MS);
    const since = Date.now();
    const before = operators.map((o) => o.proxy.connections);
    await sleep(periodMs);
    const watches = audit.watchesSince(since);
    return contenders.map((c, i) => {
      operators[i]?.assertRunning();
      const ours = (agent: string): boolean =>
        c.name === 'controller-runtime' ? agent.startsWith('operator-bench/') : agent === '';
      let count = 0;
      for (const [agent, n] of watches) if (ours(agent)) count += n;
      return {
        name: c.name,
        connections: (operators[i]?.proxy.connections ?? 0) - (before[i] ?? 0),
        watches: count,
      };
    });
  } finally {
    await Promise.all(operators.map((o) => o.stop()));
  }
}

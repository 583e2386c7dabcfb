import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The API server's audit log of watch requests only: who opened a watch and when, whatever the
 * client (the API server's own metrics count watches, but not by client).
 */
export class WatchAudit implements Disposable {
  readonly logPath: string;
  readonly apiServerArgs: readonly string[];
  readonly #dir: string;

  constructor() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-audit-'));
    this.#dir = dir;
    const policy = join(dir, 'policy.json');
    this.logPath = join(dir, 'audit.log');
    writeFileSync(
      policy,
      JSON.stringify({
        apiVersion: 'audit.k8s.io/v1',
        kind: 'Policy',
        omitStages: ['ResponseStarted', 'ResponseComplete', 'Panic'],
        rules: [{ level: 'Metadata', verbs: ['watch'] }, { level: 'None' }],
      }),
    );
    this.apiServerArgs = [`--audit-policy-file=${policy}`, `--audit-log-path=${this.logPath}`];
  }

  /** Watch requests received since `sinceMs` (epoch ms), by the user agent that sent them. */
  watchesSince(sinceMs: number): ReadonlyMap<string, number> {
    const counts = new Map<string, number>();
    // The API server writes the file at its first audited request.
    const text = existsSync(this.logPath) ? readFileSync(this.logPath, 'utf8') : '';
    for (const line of text.split('\n')) {
      if (!line) continue;
      const event = JSON.parse(line) as {
        verb?: string;
        userAgent?: string;
        requestReceivedTimestamp?: string;
      };
      if (event.verb !== 'watch' || Date.parse(event.requestReceivedTimestamp ?? '') < sinceMs) continue;
      const agent = event.userAgent ?? '';
      counts.set(agent, (counts.get(agent) ?? 0) + 1);
    }
    return counts;
  }

  /** Removes the policy and the log. */
  [Symbol.dispose](): void {
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendText, startHttpServer, type RunningServer } from '../server/http-server.ts';
import type { HealthChecker } from './health-checker.ts';
import { HealthChecks } from './health-checks.ts';

/** Where the probe server listens. */
export interface ProbeServerOptions {
  /** TCP port; 0 picks a free one. Default: 8081, as Kubebuilder's manager. */
  port?: number;
  /** Interface to bind. Default: all interfaces. */
  host?: string;
}

/**
 * The liveness (`/healthz`) and readiness (`/readyz`) probes of a manager, each with named checks
 * served as controller-runtime serves them, including `/readyz/<name>` for one check.
 *
 * @example
 * ```ts
 * const probes = new HealthProbes();
 * probes.addReadyzCheck('informers', () => { if (!synced) throw new Error('caches not synced'); });
 * const server = await probes.listen({ port: 8081 });
 * ```
 */
export class HealthProbes {
  readonly #healthz = new HealthChecks('healthz');
  readonly #readyz = new HealthChecks('readyz');

  /** Adds a liveness check: failing it makes the kubelet restart the process. */
  addHealthzCheck(name: string, checker: HealthChecker): void {
    this.#healthz.add(name, checker);
  }

  /** Adds a readiness check: failing it keeps the pod out of service. */
  addReadyzCheck(name: string, checker: HealthChecker): void {
    this.#readyz.add(name, checker);
  }

  /** Answers `/healthz[/name]` and `/readyz[/name]`; anything else is 404. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://probe');
    const [, endpoint = '', ...rest] = url.pathname.split('/');
    const checks = endpoint === 'healthz' ? this.#healthz : endpoint === 'readyz' ? this.#readyz : undefined;
    if (checks === undefined) return sendText(res, 404, '404 page not found\n');
    const answer = await checks.serve(rest.join('/'), url.searchParams);
    sendText(res, answer.status, answer.body);
  }

  /** Serves the probes over HTTP until the returned server is closed. */
  listen(options: ProbeServerOptions = {}): Promise<RunningServer> {
    const { port = 8081, host } = options;
    return startHttpServer(
      (req, res) => this.handle(req, res),
      host === undefined ? { port } : { port, host },
    );
  }
}

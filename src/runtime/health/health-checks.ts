import { ping, type HealthChecker } from './health-checker.ts';

/** What a probe endpoint answers: an HTTP status and a plain-text body. */
export interface HealthResponse {
  readonly status: number;
  readonly body: string;
}

interface CheckStatus {
  readonly name: string;
  readonly healthy: boolean;
  readonly excluded: boolean;
}

/**
 * The named checks behind one probe endpoint (`/healthz` or `/readyz`), answering as
 * controller-runtime's healthz.Handler: the endpoint itself runs every check (`?exclude=name` skips
 * one, `?verbose` lists them all even on success), `<endpoint>/<name>` runs one check.
 */
export class HealthChecks {
  readonly #endpoint: string;
  readonly #checks = new Map<string, HealthChecker>();

  /** `endpoint` names the probe in the verbose output: 'healthz' or 'readyz'. */
  constructor(endpoint: string) {
    this.#endpoint = endpoint;
  }

  /** Adds a check; names are unique. */
  add(name: string, checker: HealthChecker): void {
    if (name === '' || name.includes('/'))
      throw new Error(`health check name ${JSON.stringify(name)} is invalid`);
    if (this.#checks.has(name))
      throw new Error(`${this.#endpoint} check ${JSON.stringify(name)} already exists`);
    this.#checks.set(name, checker);
  }

  /**
   * Answers a request for `subpath` below the endpoint ('' or '/' for all checks, 'name' for one).
   */
  async serve(subpath: string, query: URLSearchParams): Promise<HealthResponse> {
    const name = subpath.replace(/^\/+|\/+$/g, '');
    if (name === '') return this.#serveAll(query);
    const checker = this.#checks.get(name) ?? (this.#checks.size === 0 && name === 'ping' ? ping : undefined);
    if (checker === undefined) return { status: 404, body: '404 page not found\n' };
    const failure = await runCheck(checker);
    return failure === undefined
      ? { status: 200, body: 'ok' }
      : { status: 500, body: `internal server error: ${failure}\n` };
  }

  async #serveAll(query: URLSearchParams): Promise<HealthResponse> {
    const excluded = new Set(query.getAll('exclude'));
    const statuses = await Promise.all(
      [...this.#checks].map(async ([name, checker]): Promise<CheckStatus> => {
        if (excluded.delete(name)) return { name, healthy: true, excluded: true };
        return { name, healthy: (await runCheck(checker)) === undefined, excluded: false };
      }),
    );
    if (statuses.length === 0) statuses.push({ name: 'ping', healthy: true, excluded: false });
    statuses.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const failed = statuses.some((s) => !s.healthy);
    const status = failed ? 500 : 200;
    if (!failed && !query.has('verbose')) return { status, body: 'ok' };
    return { status, body: this.#verboseBody(statuses, [...excluded], failed) };
  }

  /** Failures withhold their reason: the aggregate endpoint is public, `/<name>` tells the reason. */
  #verboseBody(
    statuses: readonly CheckStatus[],
    unknownExcludes: readonly string[],
    failed: boolean,
  ): string {
    const lines = statuses.map((s) =>
      s.excluded
        ? `[+]${s.name} excluded: ok`
        : s.healthy
          ? `[+]${s.name} ok`
          : `[-]${s.name} failed: reason withheld`,
    );
    if (unknownExcludes.length > 0) {
      const names = unknownExcludes.map((n) => JSON.stringify(n)).join(',');
      lines.push(`warn: some health checks cannot be excluded: no matches for ${names}`);
    }
    lines.push(`${this.#endpoint} check ${failed ? 'failed' : 'passed'}`);
    return `${lines.join('\n')}\n`;
  }
}

/** The failure's message, or undefined when the check passed. */
async function runCheck(checker: HealthChecker): Promise<string | undefined> {
  try {
    await checker();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

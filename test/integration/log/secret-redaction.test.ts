import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { promisify } from 'node:util';
import { CoreV1Api, type V1Secret } from '@kubernetes/client-node';
import type { Json } from '../../../src/runtime/api/json.ts';
import { Registry } from 'prom-client';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { SecretKind } from '../../../src/runtime/client/kinds.ts';
import { createLogger } from '../../../src/runtime/log/logger.ts';
import { REDACTED } from '../../../src/runtime/log/redact.ts';
import { Manager } from '../../../src/runtime/manager/manager.ts';
import type { Request } from '../../../src/runtime/reconcile/request.ts';
import { done, type Result } from '../../../src/runtime/reconcile/result.ts';
import { eventuallyTrue } from '../../support/eventually.ts';

const PASSWORD = 'correct-horse-battery-staple';
const API_KEY = 'sk-live-4f9a2b7c1d';
const SECRET_VALUES = [PASSWORD, API_KEY].flatMap((v) => [v, Buffer.from(v).toString('base64')]);

let env: Environment;
before(async () => {
  env = await startEnvironment();
  await env.kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'vault' } } });
});
after(() => env.stop());

/** Applies the Secret with kubectl, which copies it, values included, into an annotation. */
async function applySecret(): Promise<void> {
  const manifest = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db-credentials', namespace: 'vault' },
    type: 'Opaque',
    data: { password: Buffer.from(PASSWORD).toString('base64') },
    stringData: { 'api-key': API_KEY },
  });
  const kubectl = join(env.binDir, 'kubectl');
  const child = promisify(execFile)(kubectl, ['--kubeconfig', env.kubeconfigPath, 'apply', '-f', '-']);
  child.child.stdin?.end(manifest);
  await child;
}

/**
 * Does what careless reconcilers do: logs the whole Secret at debug, and fails once with an error
 * that carries a credential, which the controller then logs.
 */
class SecretReconciler {
  readonly seen: Json<V1Secret>[] = [];
  readonly #mgr: Manager;

  constructor(mgr: Manager) {
    this.#mgr = mgr;
  }

  async reconcile(req: Request): Promise<Result> {
    const secret = await this.#mgr.client.get(SecretKind, req);
    if (!secret) return done();
    this.#mgr.logger.debug('reconciling', { secret, headers: { Authorization: `Bearer ${API_KEY}` } });
    this.seen.push(secret);
    if (this.seen.length === 1) throw new Error(`upstream refused Authorization: Bearer ${PASSWORD}`);
    return done();
  }
}

it('no log line of a manager reconciling a Secret at debug level holds its values, plain or base64', async () => {
  const lines: string[] = [];
  const mgr = await Manager.create({
    kubeConfig: env.kubeConfig,
    metricsBindAddress: '0',
    healthProbeBindAddress: '0',
    registry: new Registry(),
    handleSignals: false,
    logger: createLogger({ level: 'debug', write: (line) => lines.push(line) }),
  });
  const reconciler = new SecretReconciler(mgr);
  mgr.controller(SecretKind).complete(reconciler);
  const stop = new AbortController();
  const running = mgr.start(stop.signal);
  try {
    await applySecret();
    await eventuallyTrue(() => reconciler.seen.length >= 2, 'the Secret to be reconciled twice');
  } finally {
    stop.abort();
    await running;
  }

  const seen = reconciler.seen[0];
  assert.equal(
    Buffer.from(seen?.data?.['api-key'] ?? '', 'base64').toString(),
    API_KEY,
    'the reconciler read the values',
  );
  const lastApplied = seen?.metadata?.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
  assert.ok(lastApplied?.includes(API_KEY), "kubectl's annotation repeats the values");
  const log = lines.join('');
  assert.ok(
    lines.some((l) => l.includes('"level":"debug"') && l.includes('db-credentials')),
    'the Secret was logged',
  );
  assert.ok(
    lines.some((l) => l.includes('"level":"error"') && l.includes('upstream refused')),
    'the error was logged',
  );
  assert.ok(log.includes(REDACTED));
  for (const value of SECRET_VALUES) assert.ok(!log.includes(value), `the log holds ${value}`);
});

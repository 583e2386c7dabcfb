/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { createServer, type Server } from 'node:net';
import { join, relative } from 'node:path';
import { startEnvironment } from 'tsoperator/envtest';
import {
  MANAGER_NAMESPACE,
  callerToken,
  eventually,
  kubectlWith,
  scratchDir,
  serviceAccountToken,
  setUpMetricsCallers,
  tokenKubeconfig,
  type E2eCluster,
  type MetricsAnswer,
} from './e2e-cluster.ts';
import { stopProcess } from './stop-process.ts';

/** config/rbac's ServiceAccount, before config/default prefixes it. */
const SERVICE_ACCOUNT = 'controller-manager';

/** How long the manager has to exit after SIGTERM: longer than its own graceful shutdown (30s). */
const MANAGER_GRACE_MS = 40_000;

/**
 * A control plane with one node, the CRDs and RBAC of config/ applied by kubectl, and the built
 * manager (`node dist/main.js`, what the image runs) holding only its ServiceAccount's token.
 */
export async function startLocalCluster(): Promise<E2eCluster> {
  const scratch = await scratchDir();
  const env = await startEnvironment({ nodes: 1 });
  const stopEnvironment = async (): Promise<void> => {
    await env.stop();
    await scratch.remove();
  };
  try {
    const kubectl = kubectlWith(join(env.binDir, 'kubectl'), env.kubeconfigPath);
    await kubectl(['apply', '--server-side', '-k', 'config/crd']);
    await kubectl(['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
    await kubectl(['create', 'namespace', MANAGER_NAMESPACE]);
    await kubectl(
      ['apply', '--server-side', '-f', '-'],
      await kubectl(['kustomize', await rbacOverlay(scratch.dir)]),
    );
    await setUpMetricsCallers(kubectl, 'metrics-reader', SERVICE_ACCOUNT);
    const token = await serviceAccountToken(env.kubeConfig, SERVICE_ACCOUNT);
    const caData = env.kubeConfig.getCurrentCluster()?.caData;
    const kubeconfig = await tokenKubeconfig(
      join(scratch.dir, 'manager.kubeconfig'),
      env.server,
      caData,
      token,
    );
    const { metricsPort, webhookPort } = await freePorts();
    const manager = startManager(kubeconfig, metricsPort, webhookPort);
    let output = '';
    manager.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    manager.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const stop = async (): Promise<void> => {
      try {
        await stopProcess(manager, MANAGER_GRACE_MS);
      } finally {
        await stopEnvironment();
      }
    };
    return {
      kubeConfig: env.kubeConfig,
      kubectl,
      // The control plane goes with the suite: nothing applied to it needs deleting.
      applySample: async (path, namespace) => {
        await kubectl(['apply', '-n', namespace, '-f', path]);
      },
      metrics: async (caller) => {
        const bearer = await callerToken(env.kubeConfig, caller, SERVICE_ACCOUNT);
        return eventually(
          () => getMetrics(metricsPort, bearer),
          'the manager to answer /metrics',
          undefined,
          () => (manager.exitCode === null ? undefined : new Error(`the manager exited:\n${output}`)),
        );
      },
      logs: () => Promise.resolve(output),
      stop,
      [Symbol.asyncDispose]: stop,
    };
  } catch (err) {
    await stopEnvironment();
    throw err;
  }
}

/** config/rbac in the manager's namespace, as config/default puts it (without its name prefix). */
async function rbacOverlay(dir: string): Promise<string> {
  const overlay = join(dir, 'rbac');
  const rbac = relative(overlay, join(process.cwd(), 'config', 'rbac'));
  await mkdir(overlay, { recursive: true });
  await writeFile(
    join(overlay, 'kustomization.yaml'),
    JSON.stringify({ namespace: MANAGER_NAMESPACE, resources: [rbac] }),
  );
  return overlay;
}

function startManager(kubeconfig: string, metricsPort: number, webhookPort: number): ChildProcess {
  return spawn(
    process.execPath,
    [
      'dist/main.js',
      `--kubeconfig=${kubeconfig}`,
      `--metrics-bind-address=127.0.0.1:${metricsPort}`,
      `--webhook-port=${webhookPort}`,
      '--health-probe-bind-address=0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/**
 * Two different ports, free now, for the manager to listen on. Both are held until both are chosen:
 * one closed at once could be handed out again as the other. The webhook server listens on every
 * address, so they are taken there.
 */
async function freePorts(): Promise<{ metricsPort: number; webhookPort: number }> {
  const metrics = createServer().listen(0);
  const webhook = createServer().listen(0);
  try {
    await Promise.all([once(metrics, 'listening'), once(webhook, 'listening')]);
    return { metricsPort: portOf(metrics), webhookPort: portOf(webhook) };
  } finally {
    metrics.close();
    webhook.close();
  }
}

function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

/** How long one GET /metrics may wait for its answer. */
const METRICS_REQUEST_TIMEOUT_MS = 10_000;

/**
 * GET https://127.0.0.1:port/metrics with `token`, if any: the manager has the API server review the
 * token and the caller's right to get /metrics. Its certificate is self-signed at start, hence not
 * verified. A 5xx (the API server could not review) is an error, for `eventually` to try again.
 */
function getMetrics(port: number, token: string | undefined): Promise<MetricsAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/metrics',
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        rejectUnauthorized: false,
        timeout: METRICS_REQUEST_TIMEOUT_MS,
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 500) reject(new Error(`/metrics: ${String(status)} ${body}`));
          else resolve({ status, body });
        });
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`/metrics: no answer in ${METRICS_REQUEST_TIMEOUT_MS} ms`)),
    );
    req.on('error', reject);
    req.end();
  });
}

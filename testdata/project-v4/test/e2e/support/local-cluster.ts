/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { startEnvironment } from 'tsoperator/envtest';
import {
  MANAGER_NAMESPACE,
  bindMetricsReader,
  eventually,
  kubectlWith,
  scratchDir,
  serviceAccountToken,
  tokenKubeconfig,
  type E2eCluster,
} from './e2e-cluster.ts';

/** config/rbac's ServiceAccount, before config/default prefixes it. */
const SERVICE_ACCOUNT = 'controller-manager';

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
    await bindMetricsReader(kubectl, 'metrics-reader', SERVICE_ACCOUNT);
    const token = await serviceAccountToken(env.kubeConfig, SERVICE_ACCOUNT);
    const caData = env.kubeConfig.getCurrentCluster()?.caData;
    const kubeconfig = await tokenKubeconfig(
      join(scratch.dir, 'manager.kubeconfig'),
      env.server,
      caData,
      token,
    );
    const metricsPort = await freePort();
    const manager = startManager(kubeconfig, metricsPort, await freePort());
    let output = '';
    manager.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    manager.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(manager, 'exit');
    const stop = async (): Promise<void> => {
      if (manager.exitCode === null) manager.kill('SIGTERM');
      await exited;
      await stopEnvironment();
    };
    return {
      kubeConfig: env.kubeConfig,
      kubectl,
      metrics: () =>
        eventually(
          () =>
            manager.exitCode === null ? getMetrics(metricsPort, token) : Promise.reject(new Error(output)),
          'the manager to serve /metrics',
        ),
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

/** A loopback port free now, for the manager to listen on. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no loopback port');
  return address.port;
}

/**
 * GET https://127.0.0.1:port/metrics with `token`: the manager has the API server review the token
 * and the caller's right to get /metrics. Its certificate is self-signed at start, hence not verified.
 */
function getMetrics(port: number, token: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/metrics',
        headers: { authorization: `Bearer ${token}` },
        rejectUnauthorized: false,
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          if (res.statusCode === 200) resolve(body);
          else reject(new Error(`/metrics: ${String(res.statusCode)} ${body}`));
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

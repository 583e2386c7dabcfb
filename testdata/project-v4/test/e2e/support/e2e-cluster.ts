/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';

/** The namespace and the names config/default gives the manager (its namespace and namePrefix). */
export const MANAGER_NAMESPACE = 'project-v4-system';
export const NAME_PREFIX = 'project-v4-';

/**
 * Where the e2e suite runs the manager: as its own ServiceAccount, with only what config/rbac grants,
 * on a control plane with a node (kube-scheduler and kwok), or, with E2E_USE_CURRENT_CLUSTER=1, in the
 * cluster of the current kubeconfig, deployed from build-installer's deploy/install.yaml with $IMG.
 */
export interface E2eCluster {
  /** An administrator of the cluster, for the test to create and read objects with. */
  readonly kubeConfig: KubeConfig;
  /** kubectl against the cluster, as its administrator; returns stdout. */
  kubectl(args: readonly string[], input?: string): Promise<string>;
  /** GET /metrics as a caller holding the metrics-reader role: the body, once it answers 200. */
  metrics(): Promise<string>;
  /** The manager's output so far, for a failing test to show. */
  logs(): Promise<string>;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** kubectl as `binary` with `kubeconfig` (the current one when undefined). */
export function kubectlWith(
  binary: string,
  kubeconfig: string | undefined,
): (args: readonly string[], input?: string) => Promise<string> {
  const prefix = kubeconfig === undefined ? [] : ['--kubeconfig', kubeconfig];
  return (args, input) => run(binary, [...prefix, ...args], input);
}

/** Runs `file` to its end with `input` on stdin; its stdout, or an error with its stderr. */
export function run(
  file: string,
  args: readonly string[],
  input?: string,
  env?: NodeJS.ProcessEnv,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      { env: env ?? process.env, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${file} ${args.join(' ')}: ${stderr || err.message}`));
        else resolve(stdout);
      },
    );
    child.stdin?.end(input);
  });
}

/** A token the TokenRequest API issues for the manager's ServiceAccount. */
export async function serviceAccountToken(kubeConfig: KubeConfig, serviceAccount: string): Promise<string> {
  const request = await kubeConfig.makeApiClient(CoreV1Api).createNamespacedServiceAccountToken({
    name: serviceAccount,
    namespace: MANAGER_NAMESPACE,
    body: { spec: { audiences: [], expirationSeconds: 3600 } },
  });
  const token = request.status?.token;
  if (!token) throw new Error(`the TokenRequest for ${serviceAccount} returned no token`);
  return token;
}

/** Grants `serviceAccount` the metrics-reader ClusterRole, as Prometheus' ServiceAccount would hold it. */
export async function bindMetricsReader(
  kubectl: (args: readonly string[]) => Promise<string>,
  clusterRole: string,
  serviceAccount: string,
): Promise<string> {
  const name = `${NAME_PREFIX}e2e-metrics-reader`;
  await kubectl([
    'create',
    'clusterrolebinding',
    name,
    `--clusterrole=${clusterRole}`,
    `--serviceaccount=${MANAGER_NAMESPACE}:${serviceAccount}`,
  ]);
  return name;
}

/** A scratch folder for the suite's files, removed by the returned function. */
export async function scratchDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'project-v4-e2e-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes a kubeconfig for `server` that authenticates with `token`, and returns its path. */
export async function tokenKubeconfig(
  path: string,
  server: string,
  caData: string | undefined,
  token: string,
): Promise<string> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'e2e', server, caData }],
    users: [{ name: 'manager', token }],
    contexts: [{ name: 'manager', cluster: 'e2e', user: 'manager' }],
    currentContext: 'manager',
  });
  await writeFile(path, kubeConfig.exportConfig(), { mode: 0o600 });
  return path;
}

/** The value `read` resolves to once it is not undefined, tried every half second until `timeoutMs`. */
export async function eventually<T>(
  read: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await read();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    await sleep(500);
  }
  throw new Error(`timed out waiting for ${what}`, { cause: lastError });
}

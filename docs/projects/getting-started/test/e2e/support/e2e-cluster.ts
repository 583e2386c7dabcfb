/*
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
import { refOf, type ObjectRef } from './owned-objects.ts';

/** The namespace and the names config/default gives the manager (its namespace and namePrefix). */
export const MANAGER_NAMESPACE = 'memcached-operator-system';
export const NAME_PREFIX = 'memcached-operator-';
/** Where the suite puts its samples. */
export const SAMPLE_NAMESPACE = 'default';

/**
 * What the suite may take to start the manager, and to tear down what it set up: node:test's hook
 * timeouts. Longer than one command may run, so that a hung command fails inside the hook, where the
 * set-up's own teardown still runs.
 */
export const SET_UP_TIMEOUT_MS = 15 * 60_000;
export const TEAR_DOWN_TIMEOUT_MS = 10 * 60_000;

/** kubectl against one cluster: runs it with `args` and `input` on stdin, and returns its stdout. */
export type Kubectl = (args: readonly string[], input?: string) => Promise<string>;

/** Who asks the manager for /metrics. */
export type MetricsCaller =
  /** A ServiceAccount bound to the metrics-reader ClusterRole, as Prometheus' is. */
  | 'metrics-reader'
  /** A ServiceAccount of the cluster that does not hold that role: the manager answers 403. */
  | 'without-role'
  /** A request without a token: the manager answers 401. */
  | 'without-token';

/** The manager's answer to GET /metrics. */
export interface MetricsAnswer {
  readonly status: number;
  readonly body: string;
}

/**
 * Where the e2e suite runs the manager: as its own ServiceAccount, with only what config/rbac grants,
 * on a control plane with a node (kube-scheduler and kwok), or, with E2E_USE_CURRENT_CLUSTER=true, in
 * the cluster of the current kubeconfig, deployed from build-installer's deploy/install.yaml with $IMG.
 */
export interface E2eCluster {
  /** An administrator of the cluster, for the test to create and read objects with. */
  readonly kubeConfig: KubeConfig;
  /** kubectl against the cluster, as its administrator. */
  readonly kubectl: Kubectl;
  /**
   * Applies the manifests of `path` in `namespace`. stop() deletes those the suite created, before
   * anything else, while the manager still runs to finalize them.
   */
  applySample(path: string, namespace: string): Promise<void>;
  /** GET /metrics as `caller`: the manager's answer, once it gives one that is not a 5xx. */
  metrics(caller: MetricsCaller): Promise<MetricsAnswer>;
  /** The manager's output so far, for a failing test to show. */
  logs(): Promise<string>;
  /** Removes what the suite set up, in a bounded time; what it found in place stays. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** kubectl as `binary` with `kubeconfig` (the current one when undefined). */
export function kubectlWith(binary: string, kubeconfig: string | undefined): Kubectl {
  const prefix = kubeconfig === undefined ? [] : ['--kubeconfig', kubeconfig];
  return (args, input) => run(binary, [...prefix, ...args], input);
}

/**
 * How long one command may run: kubectl's own waits (5 minutes at most) are shorter, this only stops
 * one that hangs. Shorter than SET_UP_TIMEOUT_MS.
 */
const COMMAND_TIMEOUT_MS = 6 * 60_000;

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
      {
        env: env ?? process.env,
        maxBuffer: 64 * 1024 * 1024,
        timeout: COMMAND_TIMEOUT_MS,
        killSignal: 'SIGKILL',
      },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${file} ${args.join(' ')}: ${stderr || err.message}`));
        else resolve(stdout);
      },
    );
    child.stdin?.end(input);
  });
}

/** A token the TokenRequest API issues for a ServiceAccount of the manager's namespace. */
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

/** The ServiceAccount, in the manager's namespace, that calls /metrics without the metrics-reader role. */
const WITHOUT_ROLE = `${NAME_PREFIX}e2e-metrics-without-role`;

/**
 * Grants `reader` (a ServiceAccount of the manager's namespace) the `clusterRole` that reads /metrics, as
 * Prometheus' ServiceAccount holds it, and creates a ServiceAccount without it. Applied, not created: a
 * run interrupted before its teardown leaves them behind, and the next run takes them over. Returns
 * them, for the teardown to delete: their names are the suite's own.
 */
export async function setUpMetricsCallers(
  kubectl: Kubectl,
  clusterRole: string,
  reader: string,
): Promise<ObjectRef[]> {
  const objects = [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `${NAME_PREFIX}e2e-metrics-reader` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRole },
      subjects: [{ kind: 'ServiceAccount', name: reader, namespace: MANAGER_NAMESPACE }],
    },
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: WITHOUT_ROLE, namespace: MANAGER_NAMESPACE },
    },
  ];
  await kubectl(
    ['apply', '--server-side', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }),
  );
  return objects.map(refOf);
}

/** The bearer token `caller` sends, none for `without-token`; `reader` holds the metrics-reader role. */
export async function callerToken(
  kubeConfig: KubeConfig,
  caller: MetricsCaller,
  reader: string,
): Promise<string | undefined> {
  if (caller === 'without-token') return undefined;
  return serviceAccountToken(kubeConfig, caller === 'metrics-reader' ? reader : WITHOUT_ROLE);
}

/** A scratch folder for the suite's files, removed by the returned function. */
export async function scratchDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'memcached-operator-e2e-'));
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

/**
 * The value `read` resolves to once it is not undefined, tried every half second until `timeoutMs`,
 * or until `hopeless` returns an error: what makes trying again pointless (the manager exited).
 */
export async function eventually<T>(
  read: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 120_000,
  hopeless: () => Error | undefined = () => undefined,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const reason = hopeless();
    if (reason !== undefined) throw new Error(`gave up waiting for ${what}`, { cause: reason });
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

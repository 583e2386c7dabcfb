/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { KubeConfig } from '@kubernetes/client-node';
import {
  MANAGER_NAMESPACE,
  NAME_PREFIX,
  callerToken,
  eventually,
  kubectlWith,
  run,
  setUpMetricsCallers,
  type E2eCluster,
  type Kubectl,
  type MetricsAnswer,
  type MetricsCaller,
} from './e2e-cluster.ts';
import { applyOwned, deleteFinalized, deleteObjects, foundInPlace, type ObjectRef } from './owned-objects.ts';
import { tearDown } from './tear-down.ts';

const SERVICE_ACCOUNT = `${NAME_PREFIX}controller-manager`;
const DEPLOYMENT = `deployment/${NAME_PREFIX}controller-manager`;
const METRICS_SERVICE = `${NAME_PREFIX}controller-manager-metrics-service`;
const CURL_POD = `${NAME_PREFIX}e2e-curl-metrics`;
const INSTALL = 'deploy/install.yaml';
/** How long reading /metrics may take, curl Pods tried again included: the first pulls curl's image. */
const METRICS_TIMEOUT_MS = 5 * 60_000;
/** How long a sample's apply may wait for the webhooks to answer: cert-manager injects their CA after the rollout. */
const WEBHOOK_READY_TIMEOUT_MS = 2 * 60_000;
/** kubectl's answers while a webhook is not yet served with a trusted certificate: worth another try. */
const WEBHOOK_NOT_READY = /failed calling webhook|x509|no endpoints available|connection refused/;

/** What the suite set up in the cluster, for its teardown to delete: nothing it found in place. */
interface Owned {
  /** The custom resources of the tests, deleted first, while the manager runs. */
  readonly samples: ObjectRef[];
  /** The objects of deploy/install.yaml that were not in the cluster before. */
  readonly install: ObjectRef[];
  /** The metrics callers' ClusterRoleBinding and ServiceAccount, and the curl Pod. */
  readonly metrics: ObjectRef[];
}

/**
 * The cluster of the current kubeconfig, with the manager deployed as a user deploys it: $IMG in
 * build-installer's deploy/install.yaml, applied by kubectl. The image must be pullable there
 * (`npm run docker-build docker-push`, or loaded into a kind cluster). The teardown deletes only what
 * the suite created: an install of the operator found in place stays (updated to $IMG by the apply).
 */
export async function startCurrentCluster(): Promise<E2eCluster> {
  const image = process.env['IMG'];
  if (!image) {
    throw new Error(
      'E2E_USE_CURRENT_CLUSTER deploys the manager image $IMG: build and push it, then set IMG',
    );
  }
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  const kubectl = kubectlWith('kubectl', undefined);
  await run('npm', ['run', 'build-installer'], undefined, { ...process.env, IMG: image });
  const owned: Owned = { samples: [], install: [], metrics: [] };
  const stop = (): Promise<void> =>
    tearDown([
      () => deleteFinalized(kubectl, owned.samples),
      () => deleteObjects(kubectl, owned.metrics),
      () => deleteObjects(kubectl, owned.install),
    ]);
  await refuseWithoutCertManager(kubectl);
  try {
    await applyOwned(kubectl, ['-f', INSTALL], owned.install);
    owned.metrics.push(
      ...(await setUpMetricsCallers(kubectl, `${NAME_PREFIX}metrics-reader`, SERVICE_ACCOUNT)),
      { apiVersion: 'v1', kind: 'Pod', namespace: MANAGER_NAMESPACE, name: CURL_POD },
    );
    await kubectl(['rollout', 'status', DEPLOYMENT, '-n', MANAGER_NAMESPACE, '--timeout=5m']);
  } catch (err) {
    await stop().catch((stopErr: unknown) => {
      throw new AggregateError([err, stopErr], 'the manager did not start, and its teardown failed');
    });
    throw err;
  }
  return {
    kubeConfig,
    kubectl,
    applySample: async (path, namespace) => {
      const args = ['-n', namespace, '-f', path];
      await refuseFoundInPlace(kubectl, args);
      await applyOnceWebhooksAnswer(() => applyOwned(kubectl, args, owned.samples));
    },
    metrics: (caller) => metricsFromCurlPod(kubeConfig, kubectl, caller),
    logs: () => kubectl(['logs', DEPLOYMENT, '-n', MANAGER_NAMESPACE]),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/**
 * Refuses a cluster without cert-manager when deploy/install.yaml asks it for the webhooks' serving
 * certificate: kubectl would fail on the Certificate with "no matches for kind", which does not say
 * what to do. Kubebuilder's suite installs cert-manager itself; this one leaves the cluster's
 * add-ons to its owner.
 */
async function refuseWithoutCertManager(kubectl: Kubectl): Promise<void> {
  const install = await readFile(INSTALL, 'utf8');
  if (!/^apiVersion: cert-manager\.io\//m.test(install)) return;
  try {
    await kubectl(['get', 'crd', 'certificates.cert-manager.io', 'issuers.cert-manager.io']);
  } catch (err) {
    throw new Error(
      `${INSTALL} has cert-manager issue the webhooks' certificate, and this cluster has no cert-manager: ` +
        'install it (https://cert-manager.io/docs/installation/), then run the suite again',
      { cause: err },
    );
  }
}

/**
 * Applies a sample, again while the project's webhooks are not yet answering (the rollout is done
 * before cert-manager's CA reaches their configurations, or before the Service has an endpoint).
 */
async function applyOnceWebhooksAnswer(apply: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + WEBHOOK_READY_TIMEOUT_MS;
  for (;;) {
    try {
      await apply();
      return;
    } catch (err) {
      const notReady = err instanceof Error && WEBHOOK_NOT_READY.test(err.message);
      if (!notReady || Date.now() >= deadline) throw err;
    }
    await sleep(2_000);
  }
}

/**
 * Refuses to apply a sample over the user's own object of its name: the steps would take it over,
 * change it and delete it. Refused rather than renamed: the sample's name is the one the steps and
 * the user read in config/samples, and an object already there most likely is the user's own try.
 */
async function refuseFoundInPlace(kubectl: Kubectl, args: readonly string[]): Promise<void> {
  const found = await foundInPlace(kubectl, args);
  if (found.length === 0) return;
  const names = found.map((ref) => `${ref.kind} ${ref.namespace ?? ''}/${ref.name}`).join(', ');
  throw new Error(
    `${names} already exists and the suite did not create it: the steps would change and delete it. ` +
      'Delete it (or move it elsewhere) first, or run the suite against another cluster',
  );
}

/**
 * /metrics read from inside the cluster by a curl Pod as `caller`, as Prometheus reads it. A Pod runs
 * curl once (`restartPolicy: Never`): one that fails (the Service has no endpoint yet) or reads a 5xx is
 * replaced by a new one until an answer comes or METRICS_TIMEOUT_MS has passed.
 */
async function metricsFromCurlPod(
  kubeConfig: KubeConfig,
  kubectl: Kubectl,
  caller: MetricsCaller,
): Promise<MetricsAnswer> {
  const token = await callerToken(kubeConfig, caller, SERVICE_ACCOUNT);
  const pod = { apiVersion: 'v1', kind: 'Pod', namespace: MANAGER_NAMESPACE, name: CURL_POD };
  await deleteObjects(kubectl, [pod]);
  return eventually(
    async () => {
      const phase = await kubectl([
        'get',
        'pod',
        CURL_POD,
        '-n',
        MANAGER_NAMESPACE,
        '--ignore-not-found',
        '-o',
        'jsonpath={.status.phase}',
      ]);
      if (phase === '') {
        await kubectl(['create', '-f', '-'], JSON.stringify(curlPod(token)));
        return undefined;
      }
      if (phase !== 'Succeeded' && phase !== 'Failed') return undefined;
      const logs = await kubectl(['logs', CURL_POD, '-n', MANAGER_NAMESPACE]);
      await deleteObjects(kubectl, [pod]);
      const answer = phase === 'Succeeded' ? curlAnswer(logs) : undefined;
      if (answer === undefined || answer.status >= 500) throw new Error(`the curl Pod ${phase}: ${logs}`);
      return answer;
    },
    'a curl Pod to read /metrics',
    METRICS_TIMEOUT_MS,
  );
}

/** The status curl's `-w` wrote on its last line, and the body before it. */
function curlAnswer(output: string): MetricsAnswer | undefined {
  const match = /\n?status=(\d{3})\s*$/.exec(output);
  if (match?.[1] === undefined) return undefined;
  return { status: Number(match[1]), body: output.slice(0, match.index) };
}

/** A Pod that passes the restricted Pod Security Standard, as the manager's namespace enforces it. */
function curlPod(token: string | undefined): object {
  const url = `https://${METRICS_SERVICE}.${MANAGER_NAMESPACE}.svc:8443/metrics`;
  const header = token === undefined ? '' : '-H "Authorization: Bearer $TOKEN" ';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: CURL_POD, namespace: MANAGER_NAMESPACE },
    spec: {
      restartPolicy: 'Never',
      securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: 'curl',
          image: 'curlimages/curl:8.11.1',
          // Not -f: a 401 or a 403 is an answer to report, not a failure to try again.
          command: ['sh', '-c', `curl -sSk ${header}-w '\\nstatus=%{http_code}' ${url}`],
          env: token === undefined ? [] : [{ name: 'TOKEN', value: token }],
          securityContext: {
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
          },
        },
      ],
    },
  };
}

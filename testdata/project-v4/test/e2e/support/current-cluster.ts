/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import { KubeConfig } from '@kubernetes/client-node';
import {
  MANAGER_NAMESPACE,
  NAME_PREFIX,
  bindMetricsReader,
  eventually,
  kubectlWith,
  run,
  serviceAccountToken,
  type E2eCluster,
} from './e2e-cluster.ts';

const SERVICE_ACCOUNT = `${NAME_PREFIX}controller-manager`;
const DEPLOYMENT = `deployment/${NAME_PREFIX}controller-manager`;
const METRICS_SERVICE = `${NAME_PREFIX}controller-manager-metrics-service`;
const CURL_POD = `${NAME_PREFIX}e2e-curl-metrics`;

/**
 * The cluster of the current kubeconfig, with the manager deployed as a user deploys it: $IMG in
 * build-installer's deploy/install.yaml, applied by kubectl. The image must be pullable there
 * (`npm run docker-build docker-push`, or loaded into a kind cluster).
 */
export async function startCurrentCluster(): Promise<E2eCluster> {
  const image = process.env['IMG'];
  if (!image) {
    throw new Error(
      'E2E_USE_CURRENT_CLUSTER=1 deploys the manager image $IMG: build and push it, then set IMG',
    );
  }
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  const kubectl = kubectlWith('kubectl', undefined);
  await run('npm', ['run', 'build-installer'], undefined, { ...process.env, IMG: image });
  await kubectl(['apply', '--server-side', '-f', 'deploy/install.yaml']);
  const binding = await bindMetricsReader(kubectl, `${NAME_PREFIX}metrics-reader`, SERVICE_ACCOUNT);
  const stop = async (): Promise<void> => {
    await kubectl(['delete', '--ignore-not-found', '-n', MANAGER_NAMESPACE, 'pod', CURL_POD]);
    await kubectl(['delete', '--ignore-not-found', 'clusterrolebinding', binding]);
    await kubectl(['delete', '--ignore-not-found', '-f', 'deploy/install.yaml']);
  };
  try {
    await kubectl(['rollout', 'status', DEPLOYMENT, '-n', MANAGER_NAMESPACE, '--timeout=5m']);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    kubeConfig,
    kubectl,
    metrics: () => metricsFromCurlPod(kubeConfig, kubectl),
    logs: () => kubectl(['logs', DEPLOYMENT, '-n', MANAGER_NAMESPACE]),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** /metrics read from inside the cluster by a curl Pod holding the ServiceAccount's token, as Prometheus reads it. */
async function metricsFromCurlPod(
  kubeConfig: KubeConfig,
  kubectl: (args: readonly string[], input?: string) => Promise<string>,
): Promise<string> {
  const token = await serviceAccountToken(kubeConfig, SERVICE_ACCOUNT);
  const url = `https://${METRICS_SERVICE}.${MANAGER_NAMESPACE}.svc:8443/metrics`;
  await kubectl(['delete', '--ignore-not-found', '--wait', '-n', MANAGER_NAMESPACE, 'pod', CURL_POD]);
  await kubectl(['apply', '-f', '-'], JSON.stringify(curlPod(url, token)));
  await eventually(async () => {
    const phase = await kubectl([
      'get',
      'pod',
      CURL_POD,
      '-n',
      MANAGER_NAMESPACE,
      '-o',
      'jsonpath={.status.phase}',
    ]);
    if (phase === 'Failed') throw new Error(await kubectl(['logs', CURL_POD, '-n', MANAGER_NAMESPACE]));
    return phase === 'Succeeded' ? true : undefined;
  }, 'the curl Pod to read /metrics');
  return kubectl(['logs', CURL_POD, '-n', MANAGER_NAMESPACE]);
}

/** A Pod that passes the restricted Pod Security Standard, as the manager's namespace enforces it. */
function curlPod(url: string, token: string): object {
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
          command: ['sh', '-c', `curl -sSfk -H "Authorization: Bearer $TOKEN" ${url}`],
          env: [{ name: 'TOKEN', value: token }],
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

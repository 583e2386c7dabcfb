import { join } from 'node:path';
import type { KubeObject } from '../../../src/runtime/api/kube-object.ts';
import type { Condition } from '../../../src/runtime/api/types.ts';
import { Registry } from 'prom-client';
import { newClient } from '../../../src/runtime/client/client.ts';
import { defineKind } from '../../../src/runtime/client/kind.ts';
import { NamespaceKind } from '../../../src/runtime/client/kinds.ts';
import type { Environment } from '../../../src/envtest/index.ts';
import { Manager } from '../../../src/runtime/manager/manager.ts';
import type { ManagerOptions } from '../../../src/runtime/manager/manager-options.ts';
import { createLogger, silentLogger, type LogLevel } from '../../../src/runtime/log/logger.ts';

export const widgetsCrd = join(import.meta.dirname, 'testdata', 'widgets.yaml');

export interface Widget extends KubeObject {
  spec?: { size?: number; mode?: string };
  status?: {
    reconciles?: number;
    observedGeneration?: number;
    lastSeen?: Date | string;
    conditions?: Condition[];
  };
}

export const WidgetKind = defineKind<Widget>({
  apiVersion: 'ctrl.tsoperator.dev/v1',
  kind: 'Widget',
  plural: 'widgets',
  namespaced: true,
});

/** A manager on the test control plane with its own registry and loopback servers on free ports. */
export async function testManager(env: Environment, options: ManagerOptions = {}): Promise<Manager> {
  return Manager.create({
    kubeConfig: env.kubeConfig,
    metricsBindAddress: '127.0.0.1:0',
    // The tests read /metrics with fetch; the secure server is tested in test/integration/metrics.
    metricsSecure: false,
    healthProbeBindAddress: '127.0.0.1:0',
    registry: new Registry(),
    handleSignals: false,
    logger: process.env['TEST_LOG_LEVEL']
      ? createLogger({ level: process.env['TEST_LOG_LEVEL'] as LogLevel })
      : silentLogger,
    ...options,
  });
}

/** Runs `mgr.start` in the background; the returned stop() aborts it and waits for it to end. */
export function runInBackground(mgr: Manager): { stop: () => Promise<void>; done: Promise<void> } {
  const abort = new AbortController();
  const done = mgr.start(abort.signal);
  done.catch(() => undefined);
  return {
    done,
    stop: async () => {
      abort.abort();
      await done;
    },
  };
}

/** A new namespace per test keeps tests of one file from seeing each other's objects. */
let namespaces = 0;
export function uniqueNamespace(prefix: string): string {
  namespaces += 1;
  return `${prefix}-${namespaces}`;
}

/** Creates ConfigMaps `names` in `namespace`, and the namespace first when it does not exist. */
export async function createConfigMaps(
  env: Environment,
  namespace: string,
  names: readonly string[],
): Promise<void> {
  const client = newClient({ kubeConfig: env.kubeConfig });
  if (!(await client.direct().get(NamespaceKind, { name: namespace }))) {
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  }
  for (const name of names) {
    await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } });
  }
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

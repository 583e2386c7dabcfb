/*
 * Copyright The tsoperator authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */

import type { V1Container, V1Deployment, V1Service } from '@kubernetes/client-node';
import type { JsonInput } from '../runtime/index.ts';
import type { Memcached } from '../api/v1/memcached.types.ts';

/** The name of the container, and of the port the Service sends traffic to. */
const CONTAINER_NAME = 'memcached';
const PORT_NAME = 'http';
/** What the container runs instead of its image's entrypoint (`--image-container-command`). */
const COMMAND: readonly string[] = ['memcached', '--memory-limit=64', '-o', 'modern', '-v'];
/** The user the container runs as (`--run-as-user`): never root. */
const RUN_AS_USER = 1001;

/** The labels of a Memcached's Pods: its Deployment selects them, and so does its Service. */
export function selectorLabels(memcached: Memcached): Record<string, string> {
  return {
    'app.kubernetes.io/name': 'memcached',
    'app.kubernetes.io/instance': memcached.metadata?.name ?? '',
  };
}

/**
 * Sets the fields of `deployment` that the Memcached decides, in place, for `createOrUpdate`. The
 * fields the API server defaults are left as they are, so that a Deployment already as it should
 * be compares equal and is not written again; a field edited by hand is put back. `deployment` is
 * as read (its timestamps are strings), or new: a `JsonInput`, which takes client-node's models too.
 */
export function mutateDeployment(memcached: Memcached, deployment: JsonInput<V1Deployment>): void {
  const labels = selectorLabels(memcached);
  // The selector cannot change once the Deployment exists: it is set when it is created.
  const spec = (deployment.spec ??= { selector: { matchLabels: labels }, template: {} });
  spec.replicas = memcached.spec.replicas ?? 1;
  const podMetadata = (spec.template.metadata ??= {});
  podMetadata.labels = { ...podMetadata.labels, ...labels };
  const podSpec = (spec.template.spec ??= { containers: [] });
  const container =
    podSpec.containers.find((c) => c.name === CONTAINER_NAME) ?? addContainer(podSpec.containers);
  container.image = memcached.spec.image;
  container.command = [...COMMAND];
  const securityContext = (container.securityContext ??= {});
  securityContext.runAsNonRoot = true;
  securityContext.runAsUser = RUN_AS_USER;
  container.ports = [{ name: PORT_NAME, containerPort: memcached.spec.port, protocol: 'TCP' }];
}

/** Sets the fields of `service` that the Memcached decides, in place, for `createOrUpdate`. */
export function mutateService(memcached: Memcached, service: JsonInput<V1Service>): void {
  const spec = (service.spec ??= {});
  spec.selector = selectorLabels(memcached);
  spec.ports = [{ name: PORT_NAME, port: memcached.spec.port, targetPort: PORT_NAME, protocol: 'TCP' }];
}

function addContainer(containers: V1Container[]): V1Container {
  const container: V1Container = { name: CONTAINER_NAME };
  containers.push(container);
  return container;
}

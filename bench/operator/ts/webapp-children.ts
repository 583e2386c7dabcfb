import type { V1Deployment, V1Service } from '@kubernetes/client-node';
import type { JsonInput } from '../../../src/runtime/api/json.ts';
import { setCondition } from '../../../src/runtime/conditions/object-conditions.ts';
import type { ConditionStatus } from '../../../src/runtime/conditions/conditions.ts';
import type { WebApp } from './webapp.ts';

// The WebApp logic of the TypeScript operator and raw loop; the Go side's children.go is the same,
// field for field, so both send the same writes.

function labelsFor(app: WebApp): Record<string, string> {
  return { 'app.kubernetes.io/name': 'webapp', 'app.kubernetes.io/instance': app.metadata?.name ?? '' };
}

export function replicasOf(app: WebApp): number {
  return app.spec.replicas ?? 1;
}

/**
 * Sets the fields the WebApp decides, leaving the API server's defaults alone so an unchanged
 * Deployment is not rewritten.
 */
export function shapeDeployment(app: WebApp, d: JsonInput<V1Deployment>): void {
  const labels = labelsFor(app);
  (d.metadata ??= {}).labels = labels;
  const spec = (d.spec ??= { selector: {}, template: {} });
  spec.replicas = replicasOf(app);
  spec.selector = { matchLabels: labels };
  (spec.template.metadata ??= {}).labels = labels;
  const podSpec = (spec.template.spec ??= { containers: [] });
  let container = podSpec.containers.length === 1 ? podSpec.containers[0] : undefined;
  if (!container) {
    container = { name: 'webapp' };
    podSpec.containers = [container];
  }
  container.name = 'webapp';
  container.image = app.spec.image;
  container.ports = [{ name: 'http', containerPort: app.spec.port, protocol: 'TCP' }];
}

export function shapeService(app: WebApp, s: JsonInput<V1Service>): void {
  (s.metadata ??= {}).labels = labelsFor(app);
  const spec = (s.spec ??= {});
  spec.selector = labelsFor(app);
  let port = spec.ports?.length === 1 ? spec.ports[0] : undefined;
  if (!port) {
    port = { port: app.spec.port };
    spec.ports = [port];
  }
  port.name = 'http';
  port.protocol = 'TCP';
  port.port = app.spec.port;
  port.targetPort = app.spec.port;
}

/** Writes what the operator observed of the Deployment into the WebApp's status. */
export function shapeStatus(app: WebApp, readyReplicas: number): void {
  const want = replicasOf(app);
  const ready = readyReplicas >= want;
  const message = `${readyReplicas}/${want} replicas ready`;
  const reason = ready ? 'ReplicasReady' : 'ReplicasNotReady';
  const status: ConditionStatus = ready ? 'True' : 'False';
  const generation = app.metadata?.generation;
  app.status = {
    ...app.status,
    readyReplicas,
    ...(generation === undefined ? {} : { observedGeneration: generation }),
  };
  setCondition(app, { type: 'Available', status, reason, message });
  setCondition(app, { type: 'Progressing', status: ready ? 'False' : 'True', reason, message });
  setCondition(app, { type: 'Degraded', status: 'False', reason: 'Reconciled', message: 'children written' });
}

import type { V1DeploymentSpec, V1ServiceSpec } from '@kubernetes/client-node';

/**
 * The spec of WebApp `name`'s Deployment, as the generated project's controller makes it: one of
 * the two objects a hand-over moves with each WebApp.
 */
export function deploymentSpecOf(name: string): V1DeploymentSpec {
  const labels = { app: name };
  return {
    replicas: 1,
    selector: { matchLabels: labels },
    template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } },
  };
}

/** The spec of WebApp `name`'s (headless) Service: the other object that moves with it. */
export function serviceSpecOf(name: string): V1ServiceSpec {
  return { clusterIP: 'None', selector: { app: name }, ports: [{ port: 80 }] };
}

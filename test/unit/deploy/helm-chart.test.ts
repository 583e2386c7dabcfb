import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { load, loadAll } from 'js-yaml';
import { helmChart, type ManifestObject } from '../../../src/deploy/helm-chart.ts';
import { mergeValues, renderTemplate, type TemplateContext } from '../../support/helm-template.ts';

const NAMESPACE = 'demo-system';
const IMAGE = { name: 'ghcr.io/acme/op', tag: 'v1' };

/** Objects as config/default builds them for a project with webhooks, with the optional components. */
const namespaceObject: ManifestObject = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: NAMESPACE },
};
const crd: ManifestObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: {
    name: 'webapps.demo.example.org',
    annotations: { 'cert-manager.io/inject-ca-from': `${NAMESPACE}/demo-serving-cert` },
  },
  spec: {
    group: 'demo.example.org',
    conversion: {
      strategy: 'Webhook',
      webhook: {
        clientConfig: { service: { name: 'demo-webhook-service', namespace: NAMESPACE, path: '/convert' } },
        conversionReviewVersions: ['v1'],
      },
    },
  },
};
const deployment: ManifestObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'demo-controller-manager', namespace: NAMESPACE },
  spec: {
    replicas: 1,
    template: {
      spec: {
        containers: [
          {
            name: 'manager',
            image: 'ghcr.io/acme/op:v1',
            args: [
              'dist/main.js',
              '--leader-elect',
              '--health-probe-bind-address=:8081',
              '--metrics-bind-address=:8443',
              '--webhook-cert-path=/tmp/k8s-webhook-server/serving-certs',
            ],
            ports: [
              { containerPort: 8443, name: 'metrics', protocol: 'TCP' },
              { containerPort: 9443, name: 'webhook-server', protocol: 'TCP' },
            ],
            resources: {
              limits: { cpu: '500m', memory: '256Mi' },
              requests: { cpu: '10m', memory: '128Mi' },
            },
            volumeMounts: [{ mountPath: '/tmp/k8s-webhook-server/serving-certs', name: 'webhook-certs' }],
          },
        ],
        volumes: [{ name: 'webhook-certs', secret: { secretName: 'webhook-server-cert' } }],
      },
    },
  },
};
const named = (apiVersion: string, kind: string, name: string, rest: object = {}): ManifestObject => ({
  apiVersion,
  kind,
  metadata: {
    name,
    ...(kind.startsWith('Cluster') || kind.endsWith('Configuration') ? {} : { namespace: NAMESPACE }),
  },
  ...rest,
});
const managerBinding = named(
  'rbac.authorization.k8s.io/v1',
  'ClusterRoleBinding',
  'demo-manager-rolebinding',
  {
    metadata: { name: 'demo-manager-rolebinding', annotations: { note: 'in {{ braces }}' } },
    subjects: [{ kind: 'ServiceAccount', name: 'demo-controller-manager', namespace: NAMESPACE }],
  },
);
const metricsObjects = [
  named('v1', 'Service', 'demo-controller-manager-metrics-service'),
  named('rbac.authorization.k8s.io/v1', 'ClusterRole', 'demo-metrics-auth-role'),
  named('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'demo-metrics-auth-rolebinding'),
  named('rbac.authorization.k8s.io/v1', 'ClusterRole', 'demo-metrics-reader'),
];
const webhookObjects = [
  named('v1', 'Service', 'demo-webhook-service'),
  named(
    'admissionregistration.k8s.io/v1',
    'MutatingWebhookConfiguration',
    'demo-mutating-webhook-configuration',
    {
      metadata: {
        name: 'demo-mutating-webhook-configuration',
        annotations: { 'cert-manager.io/inject-ca-from': `${NAMESPACE}/demo-serving-cert` },
      },
    },
  ),
];
const certManagerObjects = [
  named('cert-manager.io/v1', 'Certificate', 'demo-serving-cert', {
    spec: { dnsNames: [`demo-webhook-service.${NAMESPACE}.svc`], secretName: `${NAMESPACE}-suffixed` },
  }),
  named('cert-manager.io/v1', 'Issuer', 'demo-selfsigned-issuer'),
];
const monitor = named(
  'monitoring.coreos.com/v1',
  'ServiceMonitor',
  'demo-controller-manager-metrics-monitor',
);
const metricsPolicy = named('networking.k8s.io/v1', 'NetworkPolicy', 'demo-allow-metrics-traffic');
const webhookPolicy = named('networking.k8s.io/v1', 'NetworkPolicy', 'demo-allow-webhook-traffic');

const built = [
  namespaceObject,
  crd,
  deployment,
  managerBinding,
  ...metricsObjects,
  ...webhookObjects,
  ...certManagerObjects,
];
const objects = [...built, monitor, metricsPolicy, webhookPolicy];

const files = helmChart({ name: 'demo', version: '0.1.0', objects, image: IMAGE });
const defaultValues = load(files.find((f) => f.path === 'values.yaml')?.content ?? '');

/** Every object the chart installs in `namespace` with its values.yaml overridden by `values`. */
function install(values: object = {}, namespace = NAMESPACE): ManifestObject[] {
  const context: TemplateContext = {
    Values: mergeValues(defaultValues, values),
    Release: { Namespace: namespace, Name: 'demo' },
  };
  return files
    .filter((f) => f.path.startsWith('templates/'))
    .flatMap(
      (f) => loadAll(renderTemplate(f.content, context)).filter((o) => o !== null) as ManifestObject[],
    );
}

const find = (installed: ManifestObject[], kind: string, suffix = ''): ManifestObject | undefined =>
  installed.find((o) => o.kind === kind && o.metadata.name.endsWith(suffix));
const names = (installed: ManifestObject[]): string[] => installed.map((o) => o.metadata.name).sort();
const managerOf = (installed: ManifestObject[]) => {
  const object = find(installed, 'Deployment') as unknown as typeof deployment & {
    spec: {
      replicas: number;
      template: { spec: { containers: Record<string, unknown>[]; volumes?: unknown } };
    };
  };
  return { spec: object.spec, container: object.spec.template.spec.containers[0] ?? {} };
};

describe('the Helm chart', () => {
  it('with its own values installs what config/default builds, the CRDs kept on uninstall', () => {
    const keptCrd = {
      ...crd,
      metadata: {
        ...crd.metadata,
        annotations: { ...(crd.metadata['annotations'] as object), 'helm.sh/resource-policy': 'keep' },
      },
    };
    const expected = built.filter((o) => o !== namespaceObject).map((o) => (o === crd ? keptCrd : o));
    assert.deepEqual(
      install().sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)),
      expected.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)),
    );
  });

  it("has Kubebuilder's switches in values.yaml, each defaulting to what the build holds", () => {
    assert.deepEqual(defaultValues, {
      manager: {
        replicas: 1,
        image: { repository: 'ghcr.io/acme/op', tag: 'v1' },
        leaderElection: true,
        resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '10m', memory: '128Mi' } },
      },
      crd: { enable: true, keep: true },
      metrics: { enable: true },
      prometheus: { enable: false },
      networkPolicy: { enable: false },
      webhook: { enable: true },
      certManager: { enable: true },
    });
  });

  it('crd: enable and keep', () => {
    assert.equal(find(install({ crd: { enable: false } }), 'CustomResourceDefinition'), undefined);
    const unkept = find(install({ crd: { keep: false } }), 'CustomResourceDefinition');
    assert.deepEqual(unkept?.metadata['annotations'], crd.metadata['annotations']);
  });

  it("manager: replicas, image, leader election and resources go into the manager's Deployment", () => {
    const resources = { limits: { cpu: '2', memory: '2Gi' }, requests: { cpu: '1', memory: '1Gi' } };
    const manager = managerOf(
      install({
        manager: {
          replicas: 3,
          image: { repository: 'registry.local/op', tag: 'v2' },
          leaderElection: false,
          resources,
        },
      }),
    );
    assert.equal(manager.spec.replicas, 3);
    assert.equal(manager.container['image'], 'registry.local/op:v2');
    assert.deepEqual(manager.container['resources'], resources);
    assert.ok(!(manager.container['args'] as string[]).includes('--leader-elect'));
  });

  it('metrics: off, no Service, no RBAC for its callers, no ServiceMonitor, and the manager serves none', () => {
    const installed = install({ metrics: { enable: false }, prometheus: { enable: true } });
    for (const object of [...metricsObjects, monitor]) {
      assert.ok(!names(installed).includes(object.metadata.name), `${object.metadata.name} is not installed`);
    }
    const args = managerOf(installed).container['args'] as string[];
    assert.ok(args.includes('--metrics-bind-address=0'));
    assert.ok(!args.includes('--metrics-bind-address=:8443'));
  });

  it('prometheus and networkPolicy: on, the ServiceMonitor and the NetworkPolicies are installed', () => {
    const installed = install({ prometheus: { enable: true }, networkPolicy: { enable: true } });
    assert.deepEqual(find(installed, 'ServiceMonitor'), monitor);
    assert.deepEqual(find(installed, 'NetworkPolicy', 'allow-metrics-traffic'), metricsPolicy);
    assert.deepEqual(find(installed, 'NetworkPolicy', 'allow-webhook-traffic'), webhookPolicy);
  });

  it('webhook: off, no webhook objects, no conversion webhook, and the manager serves none', () => {
    const installed = install({ webhook: { enable: false }, networkPolicy: { enable: true } });
    const gone = [...webhookObjects, ...certManagerObjects, webhookPolicy];
    for (const object of gone) assert.ok(!names(installed).includes(object.metadata.name));
    assert.ok(find(installed, 'NetworkPolicy', 'allow-metrics-traffic'));
    const { spec, container } = managerOf(installed);
    assert.ok(!(container['args'] as string[]).some((arg) => arg.startsWith('--webhook-cert-path')));
    assert.deepEqual(container['ports'], [{ containerPort: 8443, name: 'metrics', protocol: 'TCP' }]);
    assert.equal(container['volumeMounts'], null);
    assert.equal(spec.template.spec.volumes, null);
    const installedCrd = find(installed, 'CustomResourceDefinition') as unknown as {
      spec: object;
      metadata: object;
    };
    assert.deepEqual(installedCrd.spec, { group: 'demo.example.org' });
    assert.deepEqual(installedCrd.metadata, {
      name: crd.metadata.name,
      annotations: { 'helm.sh/resource-policy': 'keep' },
    });
  });

  it('certManager: off, no Issuer and Certificate, no CA injection; the webhooks stay', () => {
    const installed = install({ certManager: { enable: false } });
    for (const object of certManagerObjects) assert.ok(!names(installed).includes(object.metadata.name));
    const webhook = find(installed, 'MutatingWebhookConfiguration');
    assert.deepEqual(webhook?.metadata, { name: 'demo-mutating-webhook-configuration', annotations: null });
    assert.deepEqual(find(installed, 'CustomResourceDefinition')?.metadata['annotations'], {
      'helm.sh/resource-policy': 'keep',
    });
  });

  it('the release namespace replaces the build namespace wherever it stands, and no other', () => {
    const installed = install({}, 'operators');
    assert.equal(find(installed, 'Deployment')?.metadata.namespace, 'operators');
    const certificate = find(installed, 'Certificate') as unknown as {
      spec: { dnsNames: string[]; secretName: string };
    };
    assert.deepEqual(certificate.spec.dnsNames, ['demo-webhook-service.operators.svc']);
    // A longer name that merely starts with the namespace is not the namespace.
    assert.equal(certificate.spec.secretName, `${NAMESPACE}-suffixed`);
    const conversion = (
      find(installed, 'CustomResourceDefinition') as typeof crd & {
        spec: { conversion: { webhook: { clientConfig: { service: { namespace: string } } } } };
      }
    ).spec.conversion;
    assert.equal(conversion.webhook.clientConfig.service.namespace, 'operators');
  });

  it('a project without webhooks has no webhook switches, and its chart never reads them', () => {
    const plain = [namespaceObject, deployment, managerBinding, ...metricsObjects].map((o) =>
      o === deployment ? withoutWebhookServer(deployment) : o,
    );
    const chart = helmChart({ name: 'demo', version: '0.1.0', objects: plain, image: IMAGE });
    const values = load(chart.find((f) => f.path === 'values.yaml')?.content ?? '') as Record<
      string,
      unknown
    >;
    assert.deepEqual(Object.keys(values), ['manager', 'crd', 'metrics', 'prometheus', 'networkPolicy']);
    for (const file of chart) assert.doesNotMatch(file.content, /\.Values\.(webhook|certManager)/, file.path);
  });

  it('leaves the Namespace to `helm install --create-namespace`', () => {
    assert.ok(!files.some((f) => f.path.startsWith('templates/namespace-')));
    const chart = load(files.find((f) => f.path === 'Chart.yaml')?.content ?? '');
    assert.deepEqual(chart, {
      apiVersion: 'v2',
      name: 'demo',
      description: 'The demo operator: its CRDs, RBAC and manager.',
      type: 'application',
      version: '0.1.0',
      appVersion: 'v1',
    });
  });
});

function withoutWebhookServer(object: ManifestObject): ManifestObject {
  const copy = structuredClone(object) as typeof deployment & {
    spec: { template: { spec: { containers: Record<string, unknown>[]; volumes?: unknown } } };
  };
  const container = copy.spec.template.spec.containers[0] ?? {};
  container['args'] = (container['args'] as string[]).filter((arg) => !arg.startsWith('--webhook'));
  container['ports'] = [{ containerPort: 8443, name: 'metrics', protocol: 'TCP' }];
  delete container['volumeMounts'];
  delete copy.spec.template.spec.volumes;
  return copy;
}

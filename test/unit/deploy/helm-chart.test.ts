import assert from 'node:assert/strict';
import { test } from 'node:test';
import { load } from 'js-yaml';
import { helmChart, type ManifestObject } from '../../../src/deploy/helm-chart.ts';
import { renderTemplate, type TemplateContext } from '../../support/helm-template.ts';

const NAMESPACE = 'demo-system';

const objects: ManifestObject[] = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'demo-controller-manager', namespace: NAMESPACE },
    spec: { template: { spec: { containers: [{ name: 'manager', image: 'ghcr.io/acme/op:v1' }] } } },
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'demo-manager-rolebinding', annotations: { note: 'in {{ braces }}' } },
    subjects: [{ kind: 'ServiceAccount', name: 'demo-controller-manager', namespace: NAMESPACE }],
  },
  {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: { name: 'demo-serving-cert', namespace: NAMESPACE },
    spec: { dnsNames: [`demo-webhook-service.${NAMESPACE}.svc`], secretName: `${NAMESPACE}-suffixed` },
  },
];

function render(path: string, context: TemplateContext): unknown {
  const files = helmChart({
    name: 'demo',
    version: '0.1.0',
    objects,
    image: { name: 'ghcr.io/acme/op', tag: 'v1' },
  });
  const file = files.find((f) => f.path === path);
  assert.ok(file, `${path} in ${files.map((f) => f.path).join(', ')}`);
  return load(renderTemplate(file.content, context));
}

const releaseIn = (namespace: string, values: unknown): TemplateContext => ({
  Values: values,
  Release: { Namespace: namespace, Name: 'demo' },
});

test('rendered with its own values in the build namespace, the chart gives back the objects', () => {
  const values = render('values.yaml', releaseIn(NAMESPACE, {}));
  for (const object of objects.slice(1)) {
    const path = `templates/${object.kind.toLowerCase()}-${object.metadata.name}.yaml`;
    assert.deepEqual(render(path, releaseIn(NAMESPACE, values)), object);
  }
});

test('the release namespace replaces the build namespace wherever it stands, and the image is a value', () => {
  const values = { controllerManager: { image: { repository: 'registry.local/op', tag: 'v2' } } };
  const context = releaseIn('operators', values);
  const deployment = render('templates/deployment-demo-controller-manager.yaml', context);
  assert.deepEqual(deployment, {
    ...objects[1],
    metadata: { name: 'demo-controller-manager', namespace: 'operators' },
    spec: { template: { spec: { containers: [{ name: 'manager', image: 'registry.local/op:v2' }] } } },
  });
  const certificate = render('templates/certificate-demo-serving-cert.yaml', context) as {
    spec: { dnsNames: string[]; secretName: string };
  };
  assert.deepEqual(certificate.spec.dnsNames, ['demo-webhook-service.operators.svc']);
  // A longer name that merely starts with the namespace is not the namespace.
  assert.equal(certificate.spec.secretName, `${NAMESPACE}-suffixed`);
});

test('the chart leaves the Namespace to `helm install --create-namespace`', () => {
  const files = helmChart({ name: 'demo', version: '0.1.0', objects, image: { name: 'op', tag: 'v1' } });
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

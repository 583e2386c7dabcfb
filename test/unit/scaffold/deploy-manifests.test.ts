import assert from 'node:assert/strict';
import { sep } from 'node:path';
import { test } from 'node:test';
import { load } from 'js-yaml';
import { repoRoot } from '../../support/cli.ts';
import { snapshotFolder } from '../../support/folder-snapshot.ts';
import { inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

/** The files `init` writes, read once for all the tests of this file. */
async function initFiles(): Promise<Map<string, string>> {
  let files = new Map<string, string>();
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    files = await snapshotFolder(dir);
  });
  return files;
}

const files = await initFiles();

function yamlOf(path: string): unknown[] {
  const text = files.get(path);
  assert.ok(text, `${path} is written`);
  return text.split(/^---$/m).map((doc) => load(doc));
}

interface Stage {
  from: string;
  instructions: string[];
}

function dockerStages(dockerfile: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of dockerfile.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const [instruction = '', ...rest] = line.split(/\s+/);
    if (instruction.toUpperCase() === 'FROM') stages.push({ from: rest.join(' '), instructions: [] });
    else stages.at(-1)?.instructions.push(line);
  }
  return stages;
}

test('the Dockerfile builds in a Node 24 stage and runs on distroless Node 24 as a non-root user, with no shell', () => {
  const stages = dockerStages(files.get('Dockerfile') ?? '');
  assert.ok(stages.length >= 2, 'multi-stage');
  const final = stages.at(-1);
  assert.match(final?.from ?? '', /^gcr\.io\/distroless\/nodejs24-debian12:nonroot$/);
  assert.deepEqual(
    final?.instructions.filter((i) => /^(RUN|SHELL|ADD)\b/i.test(i)),
    [],
    'the final stage runs nothing: distroless has no shell or package manager',
  );
  const user = final?.instructions.find((i) => i.startsWith('USER '))?.split(/\s+/)[1] ?? '';
  assert.match(user, /^[1-9][0-9]*(:[1-9][0-9]*)?$/, 'a numeric non-root user, which runAsNonRoot can check');
  assert.match(stages[0]?.from ?? '', /^node:24\b/);
});

interface PodSpec {
  securityContext: Record<string, unknown>;
  containers: {
    args: string[];
    securityContext: Record<string, unknown>;
    resources: { requests: Record<string, string>; limits: Record<string, string> };
  }[];
  volumes?: unknown[];
}

test('the manager Pod is what PodSecurity restricted asks for, with requests and limits', () => {
  const [namespace, deployment] = yamlOf('config/manager/manager.yaml') as [
    { metadata: { labels: Record<string, string> } },
    { spec: { template: { spec: PodSpec } } },
  ];
  assert.equal(namespace.metadata.labels['pod-security.kubernetes.io/enforce'], 'restricted');
  const pod = deployment.spec.template.spec;
  assert.deepEqual(pod.securityContext, {
    runAsNonRoot: true,
    runAsUser: 65532,
    runAsGroup: 65532,
    seccompProfile: { type: 'RuntimeDefault' },
  });
  const [manager] = pod.containers;
  assert.deepEqual(manager?.securityContext, {
    readOnlyRootFilesystem: true,
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
  });
  assert.ok(manager.resources.requests['cpu'] && manager.resources.requests['memory']);
  assert.ok(manager.resources.limits['cpu'] && manager.resources.limits['memory']);
  // The runtime writes no file, so the read-only root needs no writable volume.
  assert.equal(pod.volumes, undefined);
  assert.ok(manager.args.includes('--metrics-bind-address=:8443'));
});

test('metrics: the Service on 8443, the reader and auth roles, a ServiceMonitor with a bearer token over TLS', () => {
  const [service] = yamlOf('config/default/metrics_service.yaml') as [
    { spec: { ports: { port: number; targetPort: number; name: string }[] } },
  ];
  assert.deepEqual(
    service.spec.ports.map((p) => [p.name, p.port, p.targetPort]),
    [['https', 8443, 8443]],
  );
  const [reader] = yamlOf('config/rbac/metrics_reader_role.yaml') as [{ rules: unknown[] }];
  assert.deepEqual(reader.rules, [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
  const [auth] = yamlOf('config/rbac/metrics_auth_role.yaml') as [{ rules: unknown[] }];
  assert.deepEqual(auth.rules, [
    { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
    { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
  ]);
  const [monitor] = yamlOf('config/prometheus/monitor.yaml') as [
    { spec: { endpoints: Record<string, unknown>[] } },
  ];
  const [endpoint] = monitor.spec.endpoints;
  assert.equal(endpoint?.['scheme'], 'https');
  assert.equal(endpoint['port'], 'https');
  assert.equal(endpoint['bearerTokenFile'], '/var/run/secrets/kubernetes.io/serviceaccount/token');
  assert.ok(endpoint['tlsConfig']);
});

test('the NetworkPolicy admits traffic to the metrics port only from namespaces labelled for it', () => {
  const [policy] = yamlOf('config/network-policy/allow-metrics-traffic.yaml') as [
    { spec: Record<string, unknown> },
  ];
  assert.deepEqual(policy.spec, {
    podSelector: {
      matchLabels: { 'control-plane': 'controller-manager', 'app.kubernetes.io/name': 'webapp-operator' },
    },
    policyTypes: ['Ingress'],
    ingress: [
      {
        from: [{ namespaceSelector: { matchLabels: { metrics: 'enabled' } } }],
        ports: [{ port: 8443, protocol: 'TCP' }],
      },
    ],
  });
});

test('main.ts passes the metrics flags of Kubebuilder to the manager, which serves HTTPS metrics by default', () => {
  const main = files.get('src/main.ts') ?? '';
  assert.match(main, /metricsSecure: flags\.metricsSecure,/);
  assert.match(main, /metricsCertPath: flags\.metricsCertPath,/);
  assert.match(main, /enableHttp2: flags\.enableHttp2,/);
  const flags = files.get('src/manager-flags.ts') ?? '';
  assert.match(flags, /'metrics-secure': \{\n\s+type: 'boolean',\n\s+default: 'true',/);
  assert.match(flags, /'enable-http2': \{\n\s+type: 'boolean',\n\s+default: 'false',/);
});

test('package.json pins every dependency to a range a lockfile fixes, and builds the installer and chart', () => {
  const pkg = JSON.parse(files.get('package.json') ?? '') as {
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const { tsoperator, ...others } = pkg.devDependencies;
  for (const [name, range] of Object.entries({ ...pkg.dependencies, ...others })) {
    assert.match(range, /^[\^~]?\d+\.\d+\.\d+$/, `${name}@${range} is a semver range, not a tag or *`);
  }
  // These tests run tsoperator from its checkout, which the project then takes (npm links it).
  assert.equal(tsoperator, `file:${repoRoot.split(sep).join('/')}`);
  assert.equal(pkg.scripts['build-installer'], 'tsoperator build-installer');
  assert.equal(pkg.scripts['build-chart'], 'tsoperator build-chart');
  assert.match(
    pkg.scripts['deploy'] ?? '',
    /tsoperator build-installer && kubectl apply --server-side -f deploy\/install\.yaml/,
  );
});

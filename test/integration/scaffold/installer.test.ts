import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { execa } from 'execa';
import { dump, loadAll } from 'js-yaml';
import { CHART_DIR, buildChart } from '../../../src/deploy/build-chart.ts';
import { INSTALLER_PATH, buildInstaller } from '../../../src/deploy/build-installer.ts';
import { startEnvironment } from '../../../src/envtest/index.ts';
import { scaffoldApi } from '../../../src/scaffold/api/scaffold-api.ts';
import { eventually } from '../../support/eventually.ts';
import { renderChart } from '../../support/helm-template.ts';
import { inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

const NAMESPACE = 'webapp-operator-system';
const IMAGE = { name: 'registry.example.org/webapp-operator', tag: 'v0.1.0' };

interface Manifest {
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  rules?: { verbs?: string[]; resources?: string[]; apiGroups?: string[] }[];
  subjects?: { kind: string; name: string }[];
  roleRef?: { name: string };
  spec?: { template?: { spec?: PodSpec } };
}

interface PodSpec {
  containers: {
    image: string;
    securityContext?: { readOnlyRootFilesystem?: boolean };
    resources?: { requests?: object; limits?: object };
  }[];
}

const byKindAndName = (a: Manifest, b: Manifest): number =>
  `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`);

/** What the chart installs for an object of the build: the same, CRDs kept on `helm uninstall`. */
const charted = (object: Manifest): Manifest =>
  object.kind === 'CustomResourceDefinition'
    ? {
        ...object,
        metadata: {
          ...object.metadata,
          annotations: { ...object.metadata.annotations, 'helm.sh/resource-policy': 'keep' },
        },
      }
    : object;

// `npm run build-installer`, `npm run build-chart` and `npm run deploy` on a real control plane, with
// kube-controller-manager making the manager's Pod, which PodSecurity `restricted` then admits.
test('the installer is accepted by the API server, the chart holds the same objects, and the manager Pod is admitted as restricted', async () => {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    await scaffoldApi({ dir, group: 'demo', version: 'v1', kind: 'WebApp' }, { dryRun: false });
    await using env = await startEnvironment({ controllerManager: true });
    const kubectl = join(env.binDir, 'kubectl');
    const kubeconfig = ['--kubeconfig', env.kubeconfigPath];

    await buildInstaller({ dir, image: IMAGE, kubectl });
    const installer = join(dir, INSTALLER_PATH);
    const objects = loadAll(await readFile(installer, 'utf8')) as Manifest[];

    // A dry run creates nothing, so the namespaced objects would find no namespace: it goes first.
    const namespace = dump(objects.find((o) => o.kind === 'Namespace'));
    await execa(kubectl, [...kubeconfig, 'apply', '--server-side', '-f', '-'], { input: namespace });
    const dryRun = await execa(kubectl, [
      ...kubeconfig,
      'apply',
      '--server-side',
      '--dry-run=server',
      '-f',
      installer,
    ]);
    assert.match(
      dryRun.stdout,
      /deployment\.apps\/webapp-operator-controller-manager serverside-applied \(server dry run\)/,
    );

    // The manager's own roles, bound to its ServiceAccount.
    const managerRoles = new Set(
      objects
        .filter((o) => o.subjects?.some((s) => s.name === 'webapp-operator-controller-manager'))
        .map((binding) => binding.roleRef?.name),
    );
    assert.deepEqual([...managerRoles].sort(), [
      'webapp-operator-leader-election-role',
      'webapp-operator-manager-role',
      'webapp-operator-metrics-auth-role',
    ]);
    assert.equal(
      objects.filter((o) => managerRoles.has(o.metadata.name) && o.kind.endsWith('Role')).length,
      managerRoles.size,
    );
    // No generated role grants a wildcard: neither the manager's nor the per-kind admin, editor and viewer roles.
    const roles = objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role');
    assert.ok(
      roles.some((r) => r.metadata.name.endsWith('webapp-admin-role')),
      'the admin role is in the build',
    );
    for (const role of roles) {
      for (const rule of role.rules ?? []) {
        assert.ok(!rule.verbs?.includes('*'), `${role.metadata.name} grants every verb`);
        assert.ok(!rule.resources?.includes('*'), `${role.metadata.name} grants every resource`);
        assert.ok(!rule.apiGroups?.includes('*'), `${role.metadata.name} grants every group`);
      }
    }

    const manager = objects.find((o) => o.kind === 'Deployment');
    const container = manager?.spec?.template?.spec?.containers[0];
    assert.equal(container?.image, 'registry.example.org/webapp-operator:v0.1.0');
    assert.equal(container.securityContext?.readOnlyRootFilesystem, true);
    assert.ok(container.resources?.requests && container.resources.limits, 'requests and limits');

    // With its own values, the chart installs what the installer does.
    await buildChart({ dir, image: IMAGE, kubectl });
    const chartDir = join(dir, CHART_DIR);
    const installed = objects.filter((o) => o.kind !== 'Namespace').map(charted);
    const rendered = (await renderChart(chartDir, NAMESPACE)) as Manifest[];
    assert.deepEqual(rendered.sort(byKindAndName), installed.sort(byKindAndName));

    const applied = await execa(kubectl, [...kubeconfig, 'apply', '--server-side', '-f', installer]);
    assert.doesNotMatch(applied.stderr, /PodSecurity/);
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    const pod = await eventually(async () => {
      const pods = await core.listNamespacedPod({
        namespace: NAMESPACE,
        labelSelector: 'control-plane=controller-manager',
      });
      return pods.items[0];
    }, 'the ReplicaSet to create the manager Pod in the restricted namespace');
    assert.equal(pod.spec?.securityContext?.runAsNonRoot, true);

    // The namespace does enforce: a Pod without the hardening is refused.
    const unhardened: V1Pod = {
      metadata: { name: 'unhardened' },
      spec: { containers: [{ name: 'c', image: IMAGE.name }] },
    };
    await assert.rejects(
      core.createNamespacedPod({ namespace: NAMESPACE, body: unhardened }),
      (err: Error) => {
        assert.match(err.message, /HTTP-Code: 403[^]*violates PodSecurity/);
        return true;
      },
    );

    // config/network-policy and config/prometheus, which config/default offers commented out: the
    // chart's switches install what config/default builds with them, and the policies are valid.
    await writeFile(
      join(dir, 'config', 'default', 'kustomization.yaml'),
      (await readFile(join(dir, 'config', 'default', 'kustomization.yaml'), 'utf8'))
        .replace('# - ../network-policy', '- ../network-policy')
        .replace('# - ../prometheus', '- ../prometheus'),
    );
    const switchedOn = { networkPolicy: { enable: true }, prometheus: { enable: true } };
    const withComponents = loadAll(
      await readFile(
        join(dir, await buildInstaller({ dir, image: IMAGE, kubectl, output: 'all.yaml' })),
        'utf8',
      ),
    ) as Manifest[];
    assert.ok(withComponents.some((o) => o.kind === 'ServiceMonitor'));
    assert.deepEqual(
      ((await renderChart(chartDir, NAMESPACE, switchedOn)) as Manifest[]).sort(byKindAndName),
      withComponents
        .filter((o) => o.kind !== 'Namespace')
        .map(charted)
        .sort(byKindAndName),
    );
    // The ServiceMonitor needs the Prometheus Operator's CRDs, which this API server has not.
    await writeFile(
      join(dir, 'config', 'default', 'kustomization.yaml'),
      (await readFile(join(dir, 'config', 'default', 'kustomization.yaml'), 'utf8')).replace(
        '\n- ../prometheus',
        '\n# - ../prometheus',
      ),
    );
    const withPolicy = await execa(kubectl, ['kustomize', join(dir, 'config', 'default')]);
    const policy = await execa(
      kubectl,
      [...kubeconfig, 'apply', '--server-side', '--dry-run=server', '-f', '-'],
      { input: withPolicy.stdout },
    );
    assert.match(
      policy.stdout,
      /networkpolicy\.networking\.k8s\.io\/webapp-operator-allow-metrics-traffic serverside-applied/,
    );
  });
});

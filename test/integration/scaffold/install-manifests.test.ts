import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { execa } from 'execa';
import { startEnvironment } from '../../../src/envtest/index.ts';
import { scaffoldApi } from '../../../src/scaffold/api/scaffold-api.ts';
import { inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';

// What `npm run build-installer` and `npm run deploy` do with a scaffolded project's config/:
// kustomize builds it, and a real API server accepts every object in it.
for (const namespaced of [false, true]) {
  test(`the config/default of a ${namespaced ? 'namespaced' : 'cluster-wide'} project applies to a real API server`, async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir, { namespaced });
      await scaffoldApi({ dir, group: 'demo', version: 'v1', kind: 'WebApp' }, { dryRun: false });
      await using env = await startEnvironment();
      const kubectl = join(env.binDir, 'kubectl');
      const kubeconfig = ['--kubeconfig', env.admin.kubeconfigPath];

      const installer = await execa(kubectl, ['kustomize', join(dir, 'config', 'default')]);
      const applied = await execa(kubectl, [...kubeconfig, 'apply', '--server-side', '-f', '-'], {
        input: installer.stdout,
      });

      const created = applied.stdout.split('\n').sort();
      assert.ok(
        created.includes(
          'customresourcedefinition.apiextensions.k8s.io/webapps.demo.example.org serverside-applied',
        ),
      );
      assert.ok(created.includes('deployment.apps/webapp-operator-controller-manager serverside-applied'));
      assert.ok(
        created.includes(
          'clusterrole.rbac.authorization.k8s.io/webapp-operator-webapp-editor-role serverside-applied',
        ),
      );
      assert.ok(
        created.includes(
          'clusterrolebinding.rbac.authorization.k8s.io/webapp-operator-metrics-auth-rolebinding serverside-applied',
        ),
      );
      const managerRole = namespaced
        ? 'role.rbac.authorization.k8s.io'
        : 'clusterrole.rbac.authorization.k8s.io';
      assert.ok(
        created.includes(`${managerRole}/webapp-operator-manager-role serverside-applied`),
        created.join('\n'),
      );

      // The sample is valid against the CRD that create api generated.
      const samples = await execa(kubectl, ['kustomize', join(dir, 'config', 'samples')]);
      const sample = await execa(
        kubectl,
        [...kubeconfig, 'apply', '-n', 'default', '--server-side', '-f', '-'],
        {
          input: samples.stdout,
        },
      );
      assert.equal(sample.stdout, 'webapp.demo.example.org/webapp-sample serverside-applied');
    });
  });
}

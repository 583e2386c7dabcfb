import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { regenerateManifests } from '../../src/scaffold/regenerate-manifests.ts';
import { scaffoldApi } from '../../src/scaffold/api/scaffold-api.ts';
import { scaffoldWebhook } from '../../src/scaffold/webhook/scaffold-webhook.ts';
import type { CreateWebhookOptions } from '../../src/scaffold/webhook/webhook-options.ts';
import { replaceInterface } from '../support/edit-types.ts';
import { runIn } from '../support/generated-project.ts';
import { linkCheckoutPackages } from '../support/checkout-packages.ts';
import { emptyProjectFolder, initProject } from '../support/scaffold-project.ts';

async function edit(path: string, change: (text: string) => string): Promise<void> {
  await writeFile(path, change(await readFile(path, 'utf8')));
}

/** WebApp v1 as a user writes it over the scaffold: required and optional fields of several types. */
const WEBAPP_V1 = `
  // +kubebuilder:validation:MinLength=1
  /** Image is the container image to run. */
  image: string;

  /** Title is shown on the page. */
  title: string;

  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=10
  // +optional
  replicas?: int32;

  // +kubebuilder:default=frontend
  // +optional
  tier?: 'frontend' | 'backend';

  // +optional
  podLabels?: Record<string, string>;

  // +optional
  resources?: V1ResourceRequirements;

  /** Storage is where the app keeps its data. */
  storage: { size: Quantity; class?: string };
`;

/** v2: a field renamed (title to displayName), one changed type, one new. */
const WEBAPP_V2 = `
  image: string;
  displayName: string;
  replicas?: int32;
  // +optional
  description?: string;
  storage: { size: Quantity; class?: string; encrypted: boolean };
`;

/**
 * A kind whose only required field has a pattern, as a CronJob's schedule: no value can be made up
 * for it, so the webhook test must take its objects from the sample the user keeps valid.
 */
const SCHEDULE_V1 = `
  // +kubebuilder:validation:Pattern=\`^[0-9*/]+( [0-9*/]+){4}$\`
  /** Schedule in cron format. */
  schedule: string;

  // +optional
  suspend?: boolean;
`;

/** The samples as the user edits them to the fields above, which every generated test starts from. */
const SAMPLES: Readonly<Record<string, string>> = {
  'config/samples/demo_v1_webapp.yaml': 'image: nginx:1.27\n  title: Shop\n  storage:\n    size: 1Gi',
  'config/samples/demo_v2_webapp.yaml':
    'image: nginx:1.27\n  displayName: Shop\n  storage:\n    size: 1Gi\n    encrypted: false',
  'config/samples/demo_v1_schedule.yaml': "schedule: '*/1 * * * *'",
};

const CLIENT_NODE_IMPORT = "import type { V1ResourceRequirements } from '@kubernetes/client-node';";

/**
 * `create webhook` on kinds as users have them: an edited spec, a deploy-image kind, a second
 * version whose fields differ from the hub's, a cluster-scoped kind. The scaffolds must compile,
 * lint and pass their tests against the kube-apiserver however the kinds look.
 */
describe('webhook scaffolds compile and pass their tests whatever fields the kind has', () => {
  let project = '';
  const run = (file: string, args: readonly string[]): Promise<string> => runIn(project, file, args);
  const webhook = (options: Partial<CreateWebhookOptions> & { kind: string }) =>
    scaffoldWebhook(
      {
        dir: project,
        defaulting: true,
        validation: true,
        conversion: false,
        spokes: [],
        force: false,
        ...options,
      },
      { dryRun: false },
    );
  const api = (request: Parameters<typeof scaffoldApi>[0]) => scaffoldApi(request, { dryRun: false });

  before(async () => {
    project = await emptyProjectFolder();
    await initProject(project);
  });
  after(() => rm(dirname(project), { recursive: true, force: true }));

  it('scaffolds the kinds, edits their types and creates their webhooks', async () => {
    const dir = project;
    await api({ dir, group: 'demo', version: 'v1', kind: 'WebApp' });
    await api({ dir, group: 'demo', version: 'v2', kind: 'WebApp', controller: false });
    await api({ dir, group: 'demo', version: 'v1', kind: 'Cache', image: 'memcached:1.6', port: 11211 });
    await api({ dir, group: 'demo', version: 'v2', kind: 'Cache', controller: false });
    await api({ dir, group: 'demo', version: 'v1', kind: 'Site', namespaced: false });
    const imports = [CLIENT_NODE_IMPORT];
    await replaceInterface(dir, 'src/api/v1/webapp.types.ts', 'WebAppSpec', WEBAPP_V1, imports);
    await replaceInterface(dir, 'src/api/v2/webapp.types.ts', 'WebAppSpec', WEBAPP_V2);
    await api({ dir, group: 'demo', version: 'v1', kind: 'Schedule' });
    await replaceInterface(dir, 'src/api/v1/schedule.types.ts', 'ScheduleSpec', SCHEDULE_V1);
    for (const [path, spec] of Object.entries(SAMPLES)) {
      await edit(join(dir, path), (text) => text.replace('foo: bar', spec));
    }
    await regenerateManifests(dir);
    await webhook({ kind: 'WebApp', version: 'v1', conversion: true, spokes: ['v2'] });
    // v2's webhooks are called for v1's objects too (matchPolicy Equivalent): each version's test
    // must keep passing with the other's in the manifests.
    await webhook({ kind: 'WebApp', version: 'v2' });
    await webhook({ kind: 'Cache', version: 'v1', conversion: true, spokes: ['v2'] });
    await webhook({ kind: 'Site' });
    await webhook({ kind: 'Schedule' });
  });

  it('type-checks, lints and formats', async () => {
    await linkCheckoutPackages(project);
    // The controller tests were written for the spec as scaffolded: adapting them is the user's.
    const tsconfig = { extends: './tsconfig.json', include: ['src', 'test/webhooks'] };
    await writeFile(join(project, 'tsconfig.webhooks.json'), JSON.stringify(tsconfig));
    await run('npx', ['tsc', '-p', 'tsconfig.webhooks.json']);
    await run('npx', ['eslint', 'src/webhooks', 'test/webhooks']);
    await run('npx', ['prettier', '--check', 'src/webhooks', 'test/webhooks']);
  });

  it('passes its webhook tests on envtest', async () => {
    const output = await run(process.execPath, ['--test', 'test/webhooks/**/*.test.ts']);
    assert.match(output, /✔ fills in the defaults/);
    assert.match(output, /✔ refuses a Cache whose name is longer than a label value/);
    assert.match(output, /✔ refuses a Schedule whose name is longer than a label value/);
    assert.match(output, /✔ v2 converts to v1 and back through the API server/);
    // Every version's test admits its sample: WebApp v1 and v2, Cache, Site and Schedule.
    assert.equal(output.match(/✔ admits its sample/g)?.length, 5, output);
    assert.match(output, /ℹ fail 0/);
  });
});

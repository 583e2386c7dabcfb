import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { load, loadAll } from 'js-yaml';
import { TsoperatorError } from '../../../src/errors.ts';
import { regenerateManifests } from '../../../src/scaffold/regenerate-manifests.ts';
import { scaffoldWebhook } from '../../../src/scaffold/webhook/scaffold-webhook.ts';
import type { CreateWebhookOptions } from '../../../src/scaffold/webhook/webhook-options.ts';
import { snapshotFolder } from '../../support/folder-snapshot.ts';
import { createApi, inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';
import { usageErrorMatching } from '../../support/usage-error.ts';

const NONE = { defaulting: false, validation: false, conversion: false, spokes: [], force: false };

/** A project with the WebApp API in `versions` (v1 first, the storage version). */
async function inWebAppProject(
  versions: readonly string[],
  body: (dir: string) => Promise<void>,
): Promise<void> {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    for (const version of versions) await createApi(dir, { group: 'demo', version, kind: 'WebApp' });
    await regenerateManifests(dir);
    await body(dir);
  });
}

function createWebhook(
  dir: string,
  flags: Partial<Omit<CreateWebhookOptions, 'dir'>>,
): ReturnType<typeof scaffoldWebhook> {
  return scaffoldWebhook({ dir, kind: 'WebApp', ...NONE, ...flags }, { dryRun: false });
}

async function projectWebhooks(dir: string): Promise<unknown> {
  const project = load(await readFile(join(dir, 'PROJECT'), 'utf8')) as {
    resources: { version: string; webhooks?: unknown }[];
  };
  return project.resources.find((r) => r.version === 'v1')?.webhooks;
}

async function webhookConfigurationKinds(dir: string): Promise<string[]> {
  const text = await readFile(join(dir, 'config/webhook/manifests.yaml'), 'utf8');
  return (loadAll(text) as { kind: string }[]).map((doc) => doc.kind);
}

describe('create webhook: each flag combination', () => {
  it('--defaulting: a defaulter, registered, with its mutating webhook configuration', async () => {
    await inWebAppProject(['v1'], async (dir) => {
      await createWebhook(dir, { defaulting: true });
      const files = await snapshotFolder(dir);
      assert.match(
        files.get('src/webhooks/v1/webapp.defaulter.ts') ?? '',
        /class WebAppDefaulter implements CustomDefaulter<WebApp>/,
      );
      assert.ok(!files.has('src/webhooks/v1/webapp.validator.ts'));
      assert.match(
        files.get('src/webhooks/v1/webapp.webhook.ts') ?? '',
        /registerDefaulter\(WebAppKind, new WebAppDefaulter\(\)\)/,
      );
      assert.match(files.get('src/main.ts') ?? '', /^setupWebAppV1Webhooks\(mgr\);$/m);
      assert.match(files.get('test/webhooks/v1/webapp.webhook.test.ts') ?? '', /fills in the defaults/);
      assert.deepEqual(await projectWebhooks(dir), { defaulting: true, webhookVersion: 'v1' });
      assert.deepEqual(await webhookConfigurationKinds(dir), ['MutatingWebhookConfiguration']);
    });
  });

  it('--programmatic-validation: a validator, with its validating webhook configuration', async () => {
    await inWebAppProject(['v1'], async (dir) => {
      await createWebhook(dir, { validation: true });
      const files = await snapshotFolder(dir);
      assert.match(
        files.get('src/webhooks/v1/webapp.validator.ts') ?? '',
        /validateCreate\(webApp: WebApp\): Warnings/,
      );
      assert.ok(!files.has('src/webhooks/v1/webapp.defaulter.ts'));
      assert.doesNotMatch(
        files.get('test/webhooks/v1/webapp.webhook.test.ts') ?? '',
        /fills in the defaults/,
      );
      assert.deepEqual(await projectWebhooks(dir), { validation: true, webhookVersion: 'v1' });
      assert.deepEqual(await webhookConfigurationKinds(dir), ['ValidatingWebhookConfiguration']);
    });
  });

  it('--defaulting --programmatic-validation: both, and the kustomize configuration that serves them', async () => {
    await inWebAppProject(['v1'], async (dir) => {
      await createWebhook(dir, { defaulting: true, validation: true });
      const files = await snapshotFolder(dir);
      for (const path of [
        'config/webhook/service.yaml',
        'config/webhook/kustomization.yaml',
        'config/certmanager/issuer.yaml',
        'config/certmanager/certificate-webhook.yaml',
        'config/default/manager_webhook_patch.yaml',
      ]) {
        assert.ok(files.has(path), path);
      }
      const kustomization = files.get('config/default/kustomization.yaml') ?? '';
      assert.match(kustomization, /^- \.\.\/webhook\n- \.\.\/certmanager$/m);
      assert.match(kustomization, /^- path: manager_webhook_patch\.yaml$/m);
      assert.match(kustomization, /kind: MutatingWebhookConfiguration/);
      assert.match(kustomization, /kind: ValidatingWebhookConfiguration/);
      assert.ok(!files.has('config/crd/patches/webhook_in_webapps.yaml'));
      assert.deepEqual(await webhookConfigurationKinds(dir), [
        'MutatingWebhookConfiguration',
        'ValidatingWebhookConfiguration',
      ]);
    });
  });

  it('--conversion --spoke v2,v3: a conversion per spoke, registered with the hub, and the CRD patch', async () => {
    await inWebAppProject(['v1', 'v2', 'v3'], async (dir) => {
      await createWebhook(dir, { version: 'v1', conversion: true, spokes: ['v2', 'v3'] });
      const files = await snapshotFolder(dir);
      for (const version of ['v2', 'v3']) {
        const V = version.toUpperCase();
        assert.match(
          files.get(`src/webhooks/${version}/webapp.conversion.ts`) ?? '',
          new RegExp(`webApp${V}Conversion: SpokeConversion<WebApp, WebApp${V}>`),
        );
      }
      assert.match(
        files.get('src/webhooks/v1/webapp.webhook.ts') ?? '',
        /registerConversion\(WebAppKind, \{ v2: webAppV2Conversion, v3: webAppV3Conversion \}\)/,
      );
      assert.match(files.get('config/crd/patches/webhook_in_webapps.yaml') ?? '', /strategy: Webhook/);
      assert.match(
        files.get('config/crd/kustomization.yaml') ?? '',
        /^- path: patches\/webhook_in_webapps\.yaml$/m,
      );
      assert.match(files.get('config/default/kustomization.yaml') ?? '', /name: webapps\.demo\.example\.org/);
      assert.match(
        files.get('test/webhooks/v1/webapp.webhook.test.ts') ?? '',
        /v3 converts to v1 and back through the API server/,
      );
      assert.deepEqual(await projectWebhooks(dir), {
        conversion: true,
        spoke: ['v2', 'v3'],
        webhookVersion: 'v1',
      });
    });
  });

  it('all three at once', async () => {
    await inWebAppProject(['v1', 'v2'], async (dir) => {
      await createWebhook(dir, {
        version: 'v1',
        defaulting: true,
        validation: true,
        conversion: true,
        spokes: ['v2'],
      });
      const setup = (await snapshotFolder(dir)).get('src/webhooks/v1/webapp.webhook.ts') ?? '';
      assert.match(setup, /registerDefaulter/);
      assert.match(setup, /registerValidator/);
      assert.match(setup, /registerConversion/);
      assert.deepEqual(await projectWebhooks(dir), {
        conversion: true,
        defaulting: true,
        spoke: ['v2'],
        validation: true,
        webhookVersion: 'v1',
      });
    });
  });

  it('config/default builds with kustomize, the CA injected where webhooks are called', async () => {
    await inWebAppProject(['v1', 'v2'], async (dir) => {
      await createWebhook(dir, {
        version: 'v1',
        defaulting: true,
        validation: true,
        conversion: true,
        spokes: ['v2'],
      });
      const { stdout } = await promisify(execFile)('kubectl', ['kustomize', join(dir, 'config/default')]);
      const docs = loadAll(stdout) as { kind: string; metadata: { annotations?: Record<string, string> } }[];
      const injected = docs.filter((d) => d.metadata.annotations?.['cert-manager.io/inject-ca-from']);
      assert.deepEqual(injected.map((d) => d.kind).sort(), [
        'CustomResourceDefinition',
        'MutatingWebhookConfiguration',
        'ValidatingWebhookConfiguration',
      ]);
      assert.match(stdout, /- webapp-operator-webhook-service\.webapp-operator-system\.svc$/m);
      assert.match(stdout, /--webhook-cert-path=\/tmp\/k8s-webhook-server\/serving-certs/);
    });
  });

  it('--dry-run writes nothing', async () => {
    await inWebAppProject(['v1'], async (dir) => {
      const before = await snapshotFolder(dir);
      const { plan } = await scaffoldWebhook(
        { dir, kind: 'WebApp', ...NONE, defaulting: true },
        { dryRun: true },
      );
      assert.ok(plan.changes.some((c) => c.path === 'src/webhooks/v1/webapp.defaulter.ts'));
      assert.deepEqual(await snapshotFolder(dir), before);
    });
  });
});

describe('create webhook: refusals', () => {
  it('without a webhook type', async () => {
    await inWebAppProject(['v1'], async (dir) => {
      await assert.rejects(
        createWebhook(dir, {}),
        usageErrorMatching(/--defaulting, --programmatic-validation and\/or --conversion/),
      );
    });
  });

  it('without an API for the kind: run create api first', async () => {
    await inWebAppProject(['v1'], async (dir) => {
      await assert.rejects(createWebhook(dir, { kind: 'Cache', defaulting: true }), (err) => {
        assert.ok(err instanceof TsoperatorError);
        assert.match(err.message, /no API for Cache: run `tsoperator create api --kind Cache` first/);
        return true;
      });
      await assert.rejects(
        createWebhook(dir, { version: 'v2', defaulting: true }),
        /run `tsoperator create api --version v2 --kind WebApp` first/,
      );
    });
  });

  it('with several APIs of the kind and no --version', async () => {
    await inWebAppProject(['v1', 'v2'], async (dir) => {
      await assert.rejects(
        createWebhook(dir, { defaulting: true }),
        usageErrorMatching(/say which with --group demo --version v1 or/),
      );
    });
  });

  it('--conversion without --spoke, --spoke without --conversion, a spoke without an API, the hub as a spoke', async () => {
    await inWebAppProject(['v1'], async (dir) => {
      await assert.rejects(createWebhook(dir, { conversion: true }), usageErrorMatching(/--spoke v2/));
      await assert.rejects(
        createWebhook(dir, { validation: true, spokes: ['v2'] }),
        usageErrorMatching(/add --conversion/),
      );
      await assert.rejects(
        createWebhook(dir, { conversion: true, spokes: ['v2'] }),
        /the spoke WebApp v2 has no API: run `tsoperator create api --group demo --version v2 --kind WebApp` first/,
      );
      await assert.rejects(
        createWebhook(dir, { conversion: true, spokes: ['v1'] }),
        usageErrorMatching(/v1 is the hub/),
      );
    });
  });

  it('an existing webhook type without --force; with it, a file the user changed is kept', async () => {
    await inWebAppProject(['v1'], async (dir) => {
      await createWebhook(dir, { defaulting: true });
      const before = await snapshotFolder(dir);
      await assert.rejects(
        createWebhook(dir, { defaulting: true }),
        usageErrorMatching(/already has a defaulting webhook: re-run with --force/),
      );
      assert.deepEqual(await snapshotFolder(dir), before);
      const defaulter = join(dir, 'src/webhooks/v1/webapp.defaulter.ts');
      const edited = (await readFile(defaulter, 'utf8')).replace("'default'", "'mine'");
      await writeFile(defaulter, edited);
      const { plan } = await createWebhook(dir, { defaulting: true, force: true });
      assert.ok(
        plan.changes.some((c) => c.action === 'kept' && c.path === 'src/webhooks/v1/webapp.defaulter.ts'),
      );
      assert.equal(await readFile(defaulter, 'utf8'), edited);
    });
  });

  it('a new type added to an existing webhook keeps the user code and registers beside it', async () => {
    await inWebAppProject(['v1'], async (dir) => {
      await createWebhook(dir, { defaulting: true });
      const defaulter = join(dir, 'src/webhooks/v1/webapp.defaulter.ts');
      const setup = join(dir, 'src/webhooks/v1/webapp.webhook.ts');
      const editedDefaulter = (await readFile(defaulter, 'utf8')).replace("'default'", "'mine'");
      await writeFile(defaulter, editedDefaulter);
      const editedSetup = (await readFile(setup, 'utf8')).replace(
        '): void {\n',
        '): void {\n  // my own line\n',
      );
      await writeFile(setup, editedSetup);

      await createWebhook(dir, { validation: true });

      assert.equal(await readFile(defaulter, 'utf8'), editedDefaulter);
      const setupNow = await readFile(setup, 'utf8');
      assert.match(
        setupNow,
        /\/\/ my own line\n {2}mgr\.webhookServer\.registerDefaulter\(.*\n {2}mgr\.webhookServer\.registerValidator\(/,
      );
      const main = await readFile(join(dir, 'src/main.ts'), 'utf8');
      assert.equal(main.match(/setupWebAppV1Webhooks\(mgr\);/g)?.length, 1);
      assert.deepEqual(await projectWebhooks(dir), {
        defaulting: true,
        validation: true,
        webhookVersion: 'v1',
      });
    });
  });
});

describe('create webhook --conversion with a spoke added later', () => {
  it('writes its conversion, and asks for it to be added to the registration the user may own', async () => {
    await inWebAppProject(['v1', 'v2', 'v3'], async (dir) => {
      await createWebhook(dir, { version: 'v1', conversion: true, spokes: ['v2'] });
      const { plan } = await createWebhook(dir, {
        version: 'v1',
        conversion: true,
        spokes: ['v3'],
        force: true,
      });
      const files = await snapshotFolder(dir);
      assert.ok(files.has('src/webhooks/v3/webapp.conversion.ts'));
      assert.ok(
        plan.changes.some(
          (c) =>
            c.action === 'manual' &&
            c.path === 'src/webhooks/v1/webapp.webhook.ts' &&
            c.note?.includes('add v3: webAppV3Conversion to the spokes of registerConversion'),
        ),
      );
      assert.deepEqual(await projectWebhooks(dir), {
        conversion: true,
        spoke: ['v2', 'v3'],
        webhookVersion: 'v1',
      });
    });
  });
});

describe('create webhook in a multi-group project', () => {
  it("puts the webhooks under the group's folder, importing the group's types", async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir, { multigroup: true });
      await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp', namespaced: false });
      await createWebhook(dir, { defaulting: true });
      const files = await snapshotFolder(dir);
      const defaulter = files.get('src/webhooks/demo/v1/webapp.defaulter.ts') ?? '';
      assert.match(defaulter, /from '\.\.\/\.\.\/\.\.\/api\/demo\/v1\/webapp\.types\.ts'/);
      assert.match(defaulter, /from '\.\.\/\.\.\/\.\.\/runtime\/index\.ts'/);
      const test = files.get('test/webhooks/demo/v1/webapp.webhook.test.ts') ?? '';
      assert.match(test, /metadata: \{ name \}/);
      assert.match(files.get('src/main.ts') ?? '', /from '\.\/webhooks\/demo\/v1\/webapp\.webhook\.ts'/);
    });
  });
});

describe('create api for a second version', () => {
  it('with +kubebuilder:storageversion on the first, makes one multi-version CRD', async () => {
    await inWebAppProject(['v1', 'v2'], async (dir) => {
      const files = await snapshotFolder(dir);
      assert.match(files.get('src/api/v1/webapp.types.ts') ?? '', /\+kubebuilder:storageversion/);
      assert.doesNotMatch(files.get('src/api/v2/webapp.types.ts') ?? '', /\+kubebuilder:storageversion/);
      const crds = [...files.keys()].filter((path) => path.startsWith('config/crd/bases/'));
      assert.deepEqual(crds, ['config/crd/bases/demo.example.org_webapps.yaml']);
      const crd = load(files.get(crds[0] ?? '') ?? '') as {
        spec: { versions: { name: string; storage: boolean; served: boolean }[] };
      };
      assert.deepEqual(
        crd.spec.versions.map((v) => [v.name, v.served, v.storage]),
        [
          ['v1', true, true],
          ['v2', true, false],
        ],
      );
    });
  });
});

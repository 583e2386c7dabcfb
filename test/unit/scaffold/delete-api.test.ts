import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TsoperatorError } from '../../../src/errors.ts';
import { deleteApi } from '../../../src/scaffold/delete/delete-api.ts';
import type { DeleteApiOptions } from '../../../src/scaffold/delete/delete-api-options.ts';
import { regenerateManifests } from '../../../src/scaffold/regenerate-manifests.ts';
import { scaffoldWebhook } from '../../../src/scaffold/webhook/scaffold-webhook.ts';
import { snapshotFolder } from '../../support/folder-snapshot.ts';
import { createApi, inEmptyProjectFolder, initProject } from '../../support/scaffold-project.ts';
import { usageErrorMatching } from '../../support/usage-error.ts';

const WEBHOOKS = { defaulting: true, validation: true, conversion: false, spokes: [], force: false };

/** `delete api` of WebApp (group demo) in `version`, written unless `dryRun`. */
function deleteWebApp(
  dir: string,
  options: Partial<Omit<DeleteApiOptions, 'dir'>> = {},
  dryRun = false,
): ReturnType<typeof deleteApi> {
  return deleteApi({ dir, group: 'demo', kind: 'WebApp', force: false, ...options }, { dryRun });
}

/** A project just initialised (its files returned), then WebApp demo/v1 with both webhook types. */
async function inWebAppProject(
  body: (dir: string, init: Map<string, string>) => Promise<void>,
): Promise<void> {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir);
    const init = await snapshotFolder(dir);
    await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp' });
    await regenerateManifests(dir);
    await scaffoldWebhook({ dir, kind: 'WebApp', ...WEBHOOKS }, { dryRun: false });
    await body(dir, init);
  });
}

/** The main.ts lines of Captain's controller and webhooks in each group: crew's first, ship's aliased. */
const CAPTAIN_LINES = {
  crew: [
    "import { CaptainReconciler } from './controllers/crew/captain.controller.ts';",
    "import { setupCaptainV1Webhooks } from './webhooks/crew/v1/captain.webhook.ts';",
    'new CaptainReconciler(mgr.client, mgr.events).setup(mgr);',
    'setupCaptainV1Webhooks(mgr);',
  ],
  ship: [
    "import { CaptainReconciler as ShipCaptainReconciler } from './controllers/ship/captain.controller.ts';",
    "import { setupCaptainV1Webhooks as setupShipCaptainV1Webhooks } from './webhooks/ship/v1/captain.webhook.ts';",
    'new ShipCaptainReconciler(mgr.client, mgr.events).setup(mgr);',
    'setupShipCaptainV1Webhooks(mgr);',
  ],
} as const;

/** A multi-group project just initialised (its files returned), then Captain in crew/v1 and ship/v1, each with webhooks. */
async function inTwoCaptainsProject(
  body: (dir: string, init: Map<string, string>) => Promise<void>,
): Promise<void> {
  await inEmptyProjectFolder(async (dir) => {
    await initProject(dir, { multigroup: true });
    const init = await snapshotFolder(dir);
    for (const group of ['crew', 'ship']) {
      await createApi(dir, { group, version: 'v1', kind: 'Captain' });
      await regenerateManifests(dir);
      await scaffoldWebhook({ dir, group, version: 'v1', kind: 'Captain', ...WEBHOOKS }, { dryRun: false });
    }
    const main = await readFile(join(dir, 'src/main.ts'), 'utf8');
    assert.deepEqual(registrationLines(main), [...CAPTAIN_LINES.crew, ...CAPTAIN_LINES.ship].sort());
    // The webhooks' names differ too: one configuration holds both.
    const defaulter = await readFile(join(dir, 'src/webhooks/ship/v1/captain.defaulter.ts'), 'utf8');
    assert.match(defaulter, /,name=mship-captain-v1\.kb\.io,/);
    await body(dir, init);
  });
}

/** `delete api` of Captain in `group`, checked to leave main.ts nothing to do by hand. */
async function deleteCaptain(dir: string, group: string): Promise<void> {
  const plan = await deleteApi(
    { dir, group, version: 'v1', kind: 'Captain', force: false },
    { dryRun: false },
  );
  assert.deepEqual(
    plan.changes.filter((c) => c.action === 'manual'),
    [],
  );
}

/** The lines of main.ts that import or register a Captain, sorted. */
function registrationLines(main: string): string[] {
  return main
    .split('\n')
    .filter((line) => /Captain/.test(line))
    .sort();
}

async function edit(dir: string, path: string, change: (text: string) => string): Promise<void> {
  await writeFile(join(dir, path), change(await readFile(join(dir, path), 'utf8')));
}

describe('delete api', () => {
  it('undoes create api and create webhook, an external kind too: the tree is the one init wrote', async () => {
    await inWebAppProject(async (dir, init) => {
      await createApi(dir, { group: 'apps', version: 'v1', kind: 'Deployment', resource: false });
      await regenerateManifests(dir);
      await deleteApi({ dir, group: 'apps', kind: 'Deployment', force: false }, { dryRun: false });
      const plan = await deleteWebApp(dir);
      assert.deepEqual(await snapshotFolder(dir), init);
      const deleted = plan.changes.filter((c) => c.action === 'delete').map((c) => c.path);
      for (const path of [
        'src/api/v1/webapp.types.ts',
        'src/api/v1/groupversion-info.ts',
        'src/webhooks/v1/webapp.defaulter.ts',
        'config/crd/bases/demo.example.org_webapps.yaml',
        'config/webhook/manifests.yaml',
      ]) {
        assert.ok(deleted.includes(path), path);
      }
    });
  });

  it('--dry-run lists every file it would delete and change, and writes nothing', async () => {
    await inWebAppProject(async (dir) => {
      const before = await snapshotFolder(dir);
      const plan = await deleteWebApp(dir, {}, true);
      assert.deepEqual(await snapshotFolder(dir), before);
      const actions = new Map(plan.changes.map((c) => [c.path, c.action]));
      assert.equal(actions.get('src/controllers/webapp.controller.ts'), 'delete');
      assert.equal(actions.get('test/webhooks/v1/webapp.webhook.test.ts'), 'delete');
      assert.equal(actions.get('src/main.ts'), 'overwrite');
      assert.equal(actions.get('config/rbac/role.yaml'), 'overwrite');
      assert.equal(actions.get('PROJECT'), 'overwrite');
    });
  });

  it('refuses, naming each file, when the user changed files it would delete; nothing is written', async () => {
    await inWebAppProject(async (dir) => {
      await edit(dir, 'src/api/v1/webapp.types.ts', (text) => `${text}\n// mine\n`);
      await edit(dir, 'src/webhooks/v1/webapp.validator.ts', (text) => `${text}\n// mine\n`);
      const before = await snapshotFolder(dir);
      await assert.rejects(
        deleteWebApp(dir),
        usageErrorMatching(
          /src\/api\/v1\/webapp\.types\.ts, src\/webhooks\/v1\/webapp\.validator\.ts; re-run with --force/,
        ),
      );
      assert.deepEqual(await snapshotFolder(dir), before);
    });
  });

  it('--force deletes them too, each kept in .tsoperator/deleted/<time>/ as the user left it', async () => {
    await inWebAppProject(async (dir, init) => {
      await edit(dir, 'src/api/v1/webapp.types.ts', (text) => `${text}\n// mine\n`);
      const mine = await readFile(join(dir, 'src/api/v1/webapp.types.ts'), 'utf8');
      const dryRun = await deleteWebApp(dir, { force: true }, true);
      // The real run's folder is stamped with its own time: the dry run cannot know it.
      assert.equal(dryRun.keptAsideIn, '.tsoperator/deleted/<time of the run>');
      assert.ok(
        dryRun.changes.some(
          (c) => c.path === '.tsoperator/deleted/<time of the run>/src/api/v1/webapp.types.ts',
        ),
      );
      const plan = await deleteWebApp(dir, { force: true });
      assert.match(plan.keptAsideIn ?? '', /^\.tsoperator\/deleted\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
      const after = await snapshotFolder(dir);
      assert.equal(after.get(`${plan.keptAsideIn}/src/api/v1/webapp.types.ts`), mine);
      const rest = new Map([...after].filter(([path]) => !path.startsWith('.tsoperator/deleted')));
      assert.deepEqual(rest, new Map([...init].filter(([path]) => path !== '.tsoperator/deleted')));
    });
  });

  it("takes only the scaffold's lines out of a main.ts the user edited", async () => {
    await inWebAppProject(async (dir) => {
      const userLine = "mgr.addHealthzCheck('mine', () => Promise.resolve());";
      await edit(dir, 'src/main.ts', (text) =>
        text.replace(
          '// +tsoperator:scaffold:controllers',
          `${userLine}\n// +tsoperator:scaffold:controllers`,
        ),
      );
      await deleteWebApp(dir);
      const main = await readFile(join(dir, 'src/main.ts'), 'utf8');
      assert.ok(main.includes(userLine));
      assert.doesNotMatch(main, /WebApp/);
    });
  });

  it('keeps the groupversion-info of a folder that still holds another kind', async () => {
    await inWebAppProject(async (dir) => {
      await createApi(dir, { group: 'demo', version: 'v1', kind: 'Cache' });
      await deleteWebApp(dir);
      const files = await snapshotFolder(dir);
      assert.ok(files.has('src/api/v1/groupversion-info.ts'));
      assert.ok(files.has('config/rbac/cache_admin_role.yaml'));
      assert.ok(!files.has('config/rbac/webapp_admin_role.yaml'));
      // The other kind's webhook-less project keeps no webhook serving configuration.
      assert.ok(!files.has('config/webhook/service.yaml'));
      assert.doesNotMatch(files.get('config/default/kustomization.yaml') ?? '', /^- \.\.\/webhook$/m);
    });
  });

  it('refuses a spoke of a conversion, and the storage version while another remains, saying what to do first', async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir);
      await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp' });
      await createApi(dir, { group: 'demo', version: 'v2', kind: 'WebApp' });
      await regenerateManifests(dir);
      const conversion = {
        ...WEBHOOKS,
        defaulting: false,
        validation: false,
        conversion: true,
        spokes: ['v2'],
      };
      await scaffoldWebhook({ dir, kind: 'WebApp', version: 'v1', ...conversion }, { dryRun: false });
      await assert.rejects(
        deleteWebApp(dir, { version: 'v2' }),
        usageErrorMatching(
          /WebApp v2 is a spoke of the conversion webhook of WebApp v1.*delete WebApp v1 first/,
        ),
      );
      await assert.rejects(
        deleteWebApp(dir, { version: 'v1' }),
        usageErrorMatching(
          /WebApp v1 is the storage version of WebApp, and v2 remains: first make another version/,
        ),
      );
    });
  });

  it('refuses a kind the project does not have, listing the ones of that kind', async () => {
    await inWebAppProject(async (dir) => {
      await assert.rejects(deleteWebApp(dir, { version: 'v2' }), (err: unknown) => {
        assert.ok(err instanceof TsoperatorError);
        assert.match(err.message, /no API WebApp in group demo v2: PROJECT has --group demo --version v1/);
        return true;
      });
    });
  });

  it('refuses, writing nothing, when a file that stays imports a file it would delete', async () => {
    await inWebAppProject(async (dir) => {
      const helper = "import type { WebApp } from './api/v1/webapp.types.ts';\nexport type Mine = WebApp;\n";
      await writeFile(join(dir, 'src/mine.ts'), helper);
      const before = await snapshotFolder(dir);
      await assert.rejects(deleteWebApp(dir), /src\/mine\.ts imports src\/api\/v1\/webapp\.types\.ts/);
      assert.deepEqual(await snapshotFolder(dir), before);
    });
  });

  it('refuses when main.ts imports the controller in a form it did not write (prettier, double quotes)', async () => {
    await inWebAppProject(async (dir) => {
      await edit(dir, 'src/main.ts', (text) =>
        text.replace("'./controllers/webapp.controller.ts'", '"./controllers/webapp.controller.ts"'),
      );
      const before = await snapshotFolder(dir);
      await assert.rejects(
        deleteWebApp(dir),
        /src\/main\.ts imports src\/controllers\/webapp\.controller\.ts/,
      );
      assert.deepEqual(await snapshotFolder(dir), before);
    });
  });

  for (const [first, second] of [
    ['crew', 'ship'],
    ['ship', 'crew'],
  ] as const) {
    it(`of Captain in ${first}, then in ${second}, beside each other: each takes out its own main.ts lines`, async () => {
      await inTwoCaptainsProject(async (dir, init) => {
        await deleteCaptain(dir, first);
        const main = await readFile(join(dir, 'src/main.ts'), 'utf8');
        assert.deepEqual(registrationLines(main), [...CAPTAIN_LINES[second]].sort());
        await deleteCaptain(dir, second);
        assert.equal(await readFile(join(dir, 'src/main.ts'), 'utf8'), init.get('src/main.ts'));
      });
    });
  }

  it('leaves a registration main.ts still imports from another file (an older same-named import)', async () => {
    await inEmptyProjectFolder(async (dir) => {
      await initProject(dir, { multigroup: true });
      await createApi(dir, { group: 'demo', version: 'v1', kind: 'WebApp' });
      await createApi(dir, { group: 'other', version: 'v1', kind: 'WebApp' });
      // As an older tsoperator wrote it: both classes imported under one name.
      await edit(dir, 'src/main.ts', (text) =>
        text
          .replace('WebAppReconciler as OtherWebAppReconciler', 'WebAppReconciler')
          .replace('new OtherWebAppReconciler(', 'new WebAppReconciler('),
      );
      const plan = await deleteApi({ dir, group: 'other', kind: 'WebApp', force: false }, { dryRun: false });
      const main = await readFile(join(dir, 'src/main.ts'), 'utf8');
      assert.match(
        main,
        /^import \{ WebAppReconciler \} from '\.\/controllers\/demo\/webapp\.controller\.ts';$/m,
      );
      assert.match(main, /^new WebAppReconciler\(mgr\.client, mgr\.events\)\.setup\(mgr\);$/m);
      assert.doesNotMatch(main, /controllers\/other\//);
      assert.ok(plan.changes.some((c) => c.action === 'manual' && c.note?.includes('left in place')));
    });
  });

  it('refuses, writing nothing, when a kustomization that stays lists a file it deletes in another spelling', async () => {
    await inWebAppProject(async (dir) => {
      await edit(dir, 'config/samples/kustomization.yaml', (text) =>
        text.replace('- demo_v1_webapp.yaml', '- "demo_v1_webapp.yaml"'),
      );
      await edit(dir, 'config/crd/kustomization.yaml', (text) =>
        text.replace('- bases/demo.example.org_webapps.yaml', '- ./bases/demo.example.org_webapps.yaml'),
      );
      const before = await snapshotFolder(dir);
      await assert.rejects(
        deleteWebApp(dir),
        (err: unknown) =>
          err instanceof TsoperatorError &&
          err.message.includes('config/samples/kustomization.yaml: demo_v1_webapp.yaml') &&
          err.message.includes('config/crd/kustomization.yaml: ./bases/demo.example.org_webapps.yaml'),
      );
      assert.deepEqual(await snapshotFolder(dir), before);
    });
  });

  it('refuses, writing nothing, when the sources left would not generate their manifests', async () => {
    await inWebAppProject(async (dir) => {
      await createApi(dir, { group: 'demo', version: 'v1', kind: 'Cache' });
      await edit(dir, 'src/api/v1/cache.types.ts', (text) =>
        text.replace(
          '// +kubebuilder:object:root=true',
          '// +kubebuilder:object:root=true\n// +kubebuilder:resource:scope=Nowhere',
        ),
      );
      const before = await snapshotFolder(dir);
      await assert.rejects(deleteWebApp(dir), /nothing was deleted: the sources left would not generate/);
      assert.deepEqual(await snapshotFolder(dir), before);
    });
  });
});

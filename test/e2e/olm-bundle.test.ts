import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { load } from 'js-yaml';
import { contextSources, inBuildContext } from '../support/docker-build-context.ts';
import { snapshotFolder } from '../support/folder-snapshot.ts';
import { repoRoot, runTsoperatorSource } from '../support/cli.ts';
import { validateBundle } from '../support/bundle-validator.ts';

/*
 * `tsoperator generate bundle` in a copy of testdata/project-v4 (webhooks, a conversion webhook, a
 * cluster-scoped kind), its bundle checked by the operator framework's own validators.
 */
const BASE_CSV = 'config/manifests/bases/project-v4.clusterserviceversion.yaml';
const CSV = 'bundle/manifests/project-v4.clusterserviceversion.yaml';
const IMAGE = 'ghcr.io/acme/project-v4:v0.1.0';

interface Rule {
  readonly resources: readonly string[];
}

interface Permissions {
  readonly serviceAccountName: string;
  readonly rules: readonly Rule[];
}

interface OwnedCrd {
  readonly name: string;
  readonly version: string;
  readonly displayName?: string;
  readonly description?: string;
  readonly specDescriptors?: unknown;
}

interface Container {
  readonly image: string;
  readonly volumeMounts?: unknown;
}

/** The parts of the generated CSV the tests read. */
interface Csv {
  readonly metadata: { readonly name: string; readonly annotations: Record<string, string> };
  readonly spec: {
    readonly version: string;
    readonly description: string;
    readonly install: {
      readonly strategy: string;
      readonly spec: {
        readonly deployments: readonly {
          readonly name: string;
          readonly spec: {
            readonly template: {
              readonly spec: { readonly containers: Container[]; readonly volumes?: unknown };
            };
          };
        }[];
        readonly permissions: readonly Permissions[];
        readonly clusterPermissions: readonly Permissions[];
      };
    };
    readonly customresourcedefinitions: { readonly owned: readonly OwnedCrd[] };
    readonly webhookdefinitions: readonly {
      readonly type: string;
      readonly generateName: string;
      readonly deploymentName: string;
      readonly targetPort: number;
    }[];
  };
}

let project: string;
let output = '';
let errors = '';

async function run(...args: string[]): Promise<number> {
  return runIn(process.env, ...args);
}

async function runIn(env: NodeJS.ProcessEnv, ...args: string[]): Promise<number> {
  const result = await runTsoperatorSource(['generate', 'bundle', ...args], project, env);
  output = result.stdout;
  errors = result.stderr;
  return result.code ?? 1;
}

async function readYaml(path: string): Promise<Record<string, unknown>> {
  return load(await readFile(join(project, path), 'utf8')) as Record<string, unknown>;
}

describe('tsoperator generate bundle', () => {
  before(async () => {
    project = await mkdtemp(join(tmpdir(), 'tsoperator-bundle-'));
    await cp(join(repoRoot, 'testdata', 'project-v4'), project, { recursive: true });
    // A project made before init scaffolded the base CSV: generate bundle writes it.
    await rm(join(project, 'config', 'manifests'), { recursive: true, force: true });
  });
  after(async () => {
    await rm(project, { recursive: true, force: true });
  });

  it('refuses a version that is not a semantic version, and writes nothing', async () => {
    const before = await snapshotFolder(project);
    assert.equal(await run('--version', 'v0.1.0'), 2);
    assert.match(errors, /--version "v0\.1\.0" is not a semantic version \(write 0\.1\.0/);
    assert.equal(await run('--version', '01.2.3'), 2);
    assert.match(errors, /without leading zeros/);
    assert.equal(await run('--version', '0.1.0', '--channels', 'alpha', '--default-channel', 'stable'), 2);
    assert.match(errors, /--default-channel stable is not one of --channels alpha/);
    assert.equal(await run('--version', '0.1.0', '--package', 'My_Operator'), 2);
    assert.match(
      errors,
      /--package "My_Operator" is not a package name: it must consist of lower-case letters/,
    );
    assert.deepEqual(await snapshotFolder(project), before);
  });

  it('prints the plan under --dry-run and writes nothing', async () => {
    const before = await snapshotFolder(project);
    assert.equal(await run('--version', '0.1.0', '--img', IMAGE, '--dry-run'), 0);
    assert.match(output, new RegExp(`^create {4}${BASE_CSV}$`, 'm'));
    assert.match(output, new RegExp(`^create {4}${CSV}$`, 'm'));
    assert.match(output, /^create {4}bundle\.Dockerfile$/m);
    assert.match(output, /^dry run: nothing was written$/m);
    assert.deepEqual(await snapshotFolder(project), before);
  });

  it('writes a bundle the operator framework validates without errors', async () => {
    assert.equal(
      await run(
        '--version',
        '0.1.0',
        '--img',
        IMAGE,
        '--channels',
        'alpha,stable',
        '--default-channel',
        'stable',
      ),
      0,
      errors,
    );
    assert.match(output, /not in the bundle \(OLM does not install these\): Namespace\/project-v4-system/);
    const result = await validateBundle(join(project, 'bundle'));
    assert.equal(result.loadError, undefined);
    assert.deepEqual(result.errors, []);
    const annotations = (await readYaml('bundle/metadata/annotations.yaml'))['annotations'] as Record<
      string,
      string
    >;
    assert.equal(annotations['operators.operatorframework.io.bundle.package.v1'], 'project-v4');
    assert.equal(annotations['operators.operatorframework.io.bundle.channels.v1'], 'alpha,stable');
    assert.equal(annotations['operators.operatorframework.io.bundle.channel.default.v1'], 'stable');
    const dockerfile = await readFile(join(project, 'bundle.Dockerfile'), 'utf8');
    for (const [key, value] of Object.entries(annotations))
      assert.ok(dockerfile.includes(`LABEL ${key}=${value}\n`), key);
  });

  it("bundle.Dockerfile copies only what the project's .dockerignore lets into the build context", async () => {
    const dockerfile = await readFile(join(project, 'bundle.Dockerfile'), 'utf8');
    const dockerignore = await readFile(join(project, '.dockerignore'), 'utf8');
    const sources = contextSources(dockerfile);
    assert.deepEqual(sources, ['bundle/manifests', 'bundle/metadata']);
    for (const source of sources) {
      assert.ok(inBuildContext(dockerignore, source), `${source} is in the context`);
      assert.ok((await readdir(join(project, source))).length > 0, `${source} has files`);
    }
  });

  it('builds the CSV from config/: deployment, permissions, owned CRDs, webhooks, examples', async () => {
    const csv = (await readYaml(CSV)) as unknown as Csv;
    assert.equal(csv.metadata.name, 'project-v4.v0.1.0');
    assert.equal(csv.spec.version, '0.1.0');
    const install = csv.spec.install;
    assert.equal(install.strategy, 'deployment');
    const [deployment] = install.spec.deployments;
    assert.equal(deployment?.name, 'project-v4-controller-manager');
    const pod = deployment?.spec.template.spec;
    assert.equal(pod?.containers[0]?.image, IMAGE);
    // OLM mounts its own webhook certificate where cert-manager's Secret was.
    assert.equal(pod?.volumes, undefined);
    assert.equal(pod?.containers[0]?.volumeMounts, undefined);
    const grants = (permissions: readonly Permissions[]): string[] =>
      permissions.flatMap((p) =>
        p.rules.flatMap((rule) => rule.resources.map((r) => `${p.serviceAccountName} ${r}`)),
      );
    const cluster = grants(install.spec.clusterPermissions);
    assert.ok(cluster.includes('project-v4-controller-manager memcacheds'), cluster.join());
    assert.ok(cluster.includes('project-v4-controller-manager tokenreviews'), cluster.join());
    assert.ok(grants(install.spec.permissions).includes('project-v4-controller-manager leases'));
    const owned = csv.spec.customresourcedefinitions.owned;
    assert.deepEqual(
      owned.map((crd) => `${crd.name}/${crd.version}`),
      [
        'admirals.crew.testproject.org/v1',
        'captains.crew.testproject.org/v1',
        'captains.crew.testproject.org/v2',
        'memcacheds.crew.testproject.org/v1',
      ],
    );
    assert.match(owned[0]?.description ?? '', /^Admiral is the Schema for the admirals API/);
    const webhooks = csv.spec.webhookdefinitions;
    assert.deepEqual(
      webhooks.map((w) => `${w.type} ${w.generateName}`),
      [
        'ConversionWebhook ccaptains.kb.io',
        'MutatingAdmissionWebhook mcaptain-v1.kb.io',
        'MutatingAdmissionWebhook mmemcached-v1.kb.io',
        'ValidatingAdmissionWebhook vcaptain-v1.kb.io',
        'ValidatingAdmissionWebhook vmemcached-v1.kb.io',
      ],
    );
    assert.ok(
      webhooks.every((w) => w.deploymentName === 'project-v4-controller-manager' && w.targetPort === 9443),
    );
    const examples = JSON.parse(csv.metadata.annotations['alm-examples'] ?? '[]') as { kind: string }[];
    assert.deepEqual(
      examples.map((e) => e.kind),
      ['Admiral', 'Captain', 'Memcached', 'Captain'],
    );
    // The manager's ServiceAccount, roles and bindings are the CSV's: OLM makes them.
    const files = await readdir(join(project, 'bundle', 'manifests'));
    assert.ok(
      !files.some((name) => name.includes('serviceaccount') || name.includes('rolebinding')),
      files.join(),
    );
    assert.ok(files.includes('project-v4-metrics-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml'));
    assert.ok(files.includes('project-v4-webhook-service_v1_service.yaml'));
  });

  it('reruns to the same bytes, createdAt included', async () => {
    const before = await snapshotFolder(project);
    assert.equal(
      await run(
        '--version',
        '0.1.0',
        '--img',
        IMAGE,
        '--channels',
        'alpha,stable',
        '--default-channel',
        'stable',
      ),
      0,
      errors,
    );
    assert.ok(
      output.split('\n').filter((line) => line.startsWith('create') || line.startsWith('overwrite'))
        .length === 0,
      output,
    );
    assert.deepEqual(await snapshotFolder(project), before);
  });

  it("keeps the user's base CSV, and takes its metadata and descriptors into the bundle", async () => {
    const base = (await readFile(join(project, BASE_CSV), 'utf8'))
      .replace(/^ {2}description: .*$/m, '  description: Runs crews of captains.')
      .replace(
        /^ {2}customresourcedefinitions: \{\}$/m,
        [
          '  customresourcedefinitions:',
          '    owned:',
          '    - name: captains.crew.testproject.org',
          '      version: v1',
          '      kind: Captain',
          '      displayName: Ship captain',
          '      specDescriptors:',
          '      - path: crewSize',
          '        displayName: Crew size',
        ].join('\n'),
      );
    await writeFile(join(project, BASE_CSV), base);
    assert.equal(await run('--version', '0.2.0', '--img', IMAGE), 0, errors);
    assert.equal(await readFile(join(project, BASE_CSV), 'utf8'), base);
    const csv = (await readYaml(CSV)) as unknown as Csv;
    assert.equal(csv.metadata.name, 'project-v4.v0.2.0');
    assert.equal(csv.spec.description, 'Runs crews of captains.');
    const captain = csv.spec.customresourcedefinitions.owned.find(
      (crd) => crd.name === 'captains.crew.testproject.org' && crd.version === 'v1',
    );
    assert.equal(captain?.displayName, 'Ship captain');
    assert.deepEqual(captain?.specDescriptors, [{ path: 'crewSize', displayName: 'Crew size' }]);
    assert.deepEqual((await validateBundle(join(project, 'bundle'))).errors, []);
  });

  it('refuses, writing nothing, a conversion webhook in a CSV that supports more than AllNamespaces', async () => {
    const base = await readFile(join(project, BASE_CSV), 'utf8');
    const ownNamespace = base.replace(
      /- supported: false\n( {4})type: OwnNamespace/,
      '- supported: true\n$1type: OwnNamespace',
    );
    assert.notEqual(ownNamespace, base);
    await writeFile(join(project, BASE_CSV), ownNamespace);
    try {
      const before = await snapshotFolder(project);
      assert.equal(await run('--version', '0.2.1', '--img', IMAGE), 1);
      assert.match(
        errors,
        /the conversion webhook ccaptains\.kb\.io needs a CSV that supports only the AllNamespaces install mode, and \S+ supports OwnNamespace, AllNamespaces/,
      );
      assert.deepEqual(await snapshotFolder(project), before);
    } finally {
      await writeFile(join(project, BASE_CSV), base);
    }
  });

  it('stamps createdAt with SOURCE_DATE_EPOCH when it is set, for reproducible bundles', async () => {
    const env = { ...process.env, SOURCE_DATE_EPOCH: '1767225600' };
    assert.equal(await runIn(env, '--version', '0.3.0', '--img', IMAGE), 0, errors);
    const csv = (await readYaml(CSV)) as unknown as Csv;
    assert.equal(csv.metadata.annotations['createdAt'], '2026-01-01T00:00:00Z');
  });

  it('is checked by validators that do run: a bundle missing an owned CRD fails', async () => {
    const broken = await mkdtemp(join(tmpdir(), 'tsoperator-broken-bundle-'));
    try {
      await cp(join(project, 'bundle'), broken, { recursive: true });
      await rm(join(broken, 'manifests', 'crew.testproject.org_admirals.yaml'));
      const result = await validateBundle(broken);
      assert.ok(
        result.errors.some((e) =>
          /owned CRD "crew\.testproject\.org\/v1, Kind=Admiral" not found in bundle/.test(e.detail),
        ),
        JSON.stringify(result.errors),
      );
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../../src/runtime/api/kube-object.ts';
import { Registry } from 'prom-client';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { CustomResourceDefinitionKind } from '../../../src/runtime/client/kinds.ts';
import { WebhookServer } from '../../../src/runtime/webhook/webhook-server.ts';
import { eventually } from '../../support/eventually.ts';
import { storedObject } from '../../support/etcd-object.ts';
import { SeededRandom } from '../../support/seeded-random.ts';
import {
  installCrdPointingAt,
  WebAppKind,
  webAppV2Conversion,
  WebAppV2Kind,
  type WebApp,
  type WebAppV2,
} from './webapp.ts';

const NAMESPACE = 'default';
const GENERATED = 200;

/** What conversion must keep: labels, annotations and spec, as JSON. */
function view(obj: KubeObject & { spec?: unknown }): unknown {
  return JSON.parse(
    JSON.stringify({ labels: obj.metadata?.labels, annotations: obj.metadata?.annotations, spec: obj.spec }),
  );
}

/** A WebApp as one version and as the other, as the test expects to read it. */
interface Expected {
  v1: unknown;
  v2: unknown;
}

describe('conversion webhook, called by the real API server over TLS', () => {
  let env: Environment;
  let client: Client;
  const server = new WebhookServer({ port: 0, host: '127.0.0.1', registry: new Registry() });
  server.registerConversion(WebAppKind, { v2: webAppV2Conversion });
  const expected = new Map<string, Expected>();
  const random = new SeededRandom(8);

  before(async () => {
    env = await startEnvironment();
    client = newClient({ kubeConfig: env.kubeConfig });
    await server.start();
    await installCrdPointingAt(env, server);
  });
  after(async () => {
    await server.close();
    await env.stop();
  });

  /** Reads every expected object as v1 and as v2, one by one and as lists of both versions. */
  async function assertAllReadBothWays(): Promise<void> {
    for (const [name, want] of expected) {
      assert.deepEqual(
        view((await client.get(WebAppKind, { namespace: NAMESPACE, name })) as WebApp),
        want.v1,
        `${name} as v1`,
      );
      assert.deepEqual(
        view((await client.get(WebAppV2Kind, { namespace: NAMESPACE, name })) as WebAppV2),
        want.v2,
        `${name} as v2`,
      );
    }
    // Lists convert many objects per ConversionReview.
    const lists = {
      v1: await client.listAll(WebAppKind, { namespace: NAMESPACE }),
      v2: await client.listAll(WebAppV2Kind, { namespace: NAMESPACE }),
    };
    for (const version of ['v1', 'v2'] as const) {
      assert.equal(lists[version].length, expected.size);
      for (const item of lists[version])
        assert.deepEqual(
          view(item),
          expected.get(item.metadata?.name ?? '')?.[version],
          `listed as ${version}`,
        );
    }
  }

  async function createV1(name: string): Promise<void> {
    const app = randomV1(random, name);
    const created = await client.create(app);
    expected.set(name, { v1: view(app), v2: view(webAppV2Conversion.convertFrom(structuredClone(app))) });
    assert.deepEqual(view(created), view(app));
  }

  async function createV2(name: string): Promise<void> {
    const app = randomV2(random, name);
    const created = await client.create(app);
    expected.set(name, { v1: view(webAppV2Conversion.convertTo(structuredClone(app))), v2: view(app) });
    assert.deepEqual(view(created), view(app));
  }

  it('reads a v1 object as the v2 it stands for', async () => {
    await client.create<WebApp>({
      apiVersion: WebAppKind.apiVersion,
      kind: 'WebApp',
      metadata: { name: 'example', namespace: NAMESPACE },
      spec: { replicas: 2, image: 'nginx', ports: [80, 443], env: { B: '2', A: '1' } },
    });
    const v2 = await client.get(WebAppV2Kind, { namespace: NAMESPACE, name: 'example' });
    assert.equal(v2?.apiVersion, 'webhook.tsoperator.dev/v2');
    assert.deepEqual(v2?.spec, {
      instances: 2,
      container: { image: 'nginx', ports: [{ port: 80 }, { port: 443 }] },
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
    });
    await client.delete(v2);
  });

  it(`loses nothing between v1 and v2, either way, over ${GENERATED} generated objects`, async () => {
    for (let i = 0; i < GENERATED / 2; i++) await createV1(`from-v1-${i}`);
    for (let i = 0; i < GENERATED / 2; i++) await createV2(`from-v2-${i}`);
    await assertAllReadBothWays();
  });

  it('keeps reading both ways once v2 is the storage version, before and after objects are migrated', async () => {
    const crd = await client.get(CustomResourceDefinitionKind, { name: 'webapps.webhook.tsoperator.dev' });
    assert.ok(crd);
    for (const version of crd.spec.versions) version.storage = version.name === 'v2';
    await client.update(crd);
    // The API server switches its storage encoding asynchronously: write until etcd shows v2.
    let probes = 0;
    await eventually(async () => {
      const name = `after-switch-${probes++}`;
      await createV1(name);
      const stored = await storedObject(
        env.etcdUrl,
        `/registry/webhook.tsoperator.dev/webapps/${NAMESPACE}/${name}`,
      );
      return stored?.['apiVersion'] === 'webhook.tsoperator.dev/v2' ? true : undefined;
    }, 'objects to be stored as v2');
    const switched = await client.get(CustomResourceDefinitionKind, {
      name: 'webapps.webhook.tsoperator.dev',
    });
    assert.deepEqual(switched?.status?.storedVersions, ['v1', 'v2']);

    await assertAllReadBothWays();
    // Migrate half of the objects, as kube-storage-version-migrator does: an unchanged update rewrites them as v2.
    const names = [...expected.keys()].filter((_, i) => i % 2 === 0);
    for (const name of names) {
      const app = await client.get(WebAppKind, { namespace: NAMESPACE, name });
      await client.update(app as WebApp);
      const stored = await storedObject(
        env.etcdUrl,
        `/registry/webhook.tsoperator.dev/webapps/${NAMESPACE}/${name}`,
      );
      assert.equal(stored?.['apiVersion'], 'webhook.tsoperator.dev/v2', name);
    }
    for (let i = 0; i < 20; i++) await (i % 2 ? createV1(`new-v1-${i}`) : createV2(`new-v2-${i}`));
    await assertAllReadBothWays();
  });
});

const WORDS = ['a', 'b', 'c', 'LOG_LEVEL', 'PORT', 'x.y/z'];
const STRATEGIES = ['RollingUpdate', 'Recreate'] as const;

function maybe<T>(random: SeededRandom, make: () => T): T | undefined {
  return random.chance(0.6) ? make() : undefined;
}

function list<T>(random: SeededRandom, make: () => T): T[] {
  return Array.from({ length: random.int(4) }, make);
}

function word(random: SeededRandom): string {
  return WORDS[random.int(WORDS.length)] as string;
}

function env(random: SeededRandom): Record<string, string> {
  return Object.fromEntries(
    list(random, () => [word(random).toUpperCase(), `${word(random)}${random.int(100)}`]),
  );
}

function metadata(random: SeededRandom, name: string): KubeObject['metadata'] {
  const labels = maybe(random, () => ({ app: word(random).replace(/[^a-z]/gi, 'q') }));
  const annotations = maybe(random, () => ({ 'example.org/note': word(random) }));
  return JSON.parse(
    JSON.stringify({ name, namespace: NAMESPACE, labels, annotations }),
  ) as KubeObject['metadata'];
}

function randomV1(random: SeededRandom, name: string): WebApp {
  const spec = {
    replicas: maybe(random, () => random.int(11)),
    image: maybe(random, () => `${word(random)}:${random.int(3)}`),
    ports: maybe(random, () => list(random, () => 1 + random.int(65535))),
    env: maybe(random, () => env(random)),
  };
  return JSON.parse(
    JSON.stringify({
      apiVersion: WebAppKind.apiVersion,
      kind: 'WebApp',
      metadata: metadata(random, name),
      spec,
    }),
  ) as WebApp;
}

/** A v2 object in the form v2 keeps: `container` only with something in it, env sorted by name, names unique. */
function randomV2(random: SeededRandom, name: string): WebAppV2 {
  const image = maybe(random, () => `${word(random)}:${random.int(3)}`);
  const ports = maybe(random, () => list(random, () => ({ port: 1 + random.int(65535) })));
  const spec = {
    instances: maybe(random, () => random.int(11)),
    container: image === undefined && ports === undefined ? undefined : { image, ports },
    env: maybe(random, () =>
      Object.entries(env(random))
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([envName, value]) => ({ name: envName, value })),
    ),
    strategy: maybe(random, () => STRATEGIES[random.int(2)]),
  };
  return JSON.parse(
    JSON.stringify({
      apiVersion: WebAppV2Kind.apiVersion,
      kind: 'WebApp',
      metadata: metadata(random, name),
      spec,
    }),
  ) as WebAppV2;
}

import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { load } from 'js-yaml';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { crdManifestGenerator } from '../../../src/gen/crd/index.ts';
import type { CustomResourceDefinition } from '../../../src/gen/crd/index.ts';
import { writeManifests } from '../../../src/gen/manifest-sync.ts';
import { generateManifests } from '../../../src/gen/manifests.ts';
import { ApiError } from '../../../src/runtime/client/api-error.ts';
import { transportFor, type Transport } from '../../../src/runtime/client/transport.ts';

/*
 * Every valid fixture's CRDs, freshly generated, go to a real API server: they must become
 * Established, the fixture's valid samples must be accepted, and each invalid sample (one per
 * validation marker and CEL rule) refused with the expected field error. This proves the schema
 * is enforced, not just written. Requests go through the runtime's JSON transport: client-node's
 * typed clients drop the `x-kubernetes-*` keys of a CRD read from YAML.
 */
type KubeObject = { apiVersion: string; kind: string; metadata: { name: string; resourceVersion?: string } };
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Samples {
  valid: KubeObject[];
  /** Fields the API server sets from the schema's defaults when `valid[base ?? 0]` is created. */
  defaulted?: ({ base?: number } & Record<string, Json>)[];
  invalid?: { expect: string; base?: number; patch: Json }[];
  invalidUpdates?: { expect: string; base?: number; patch: Json }[];
}

const VALID = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'valid');
const NAMESPACE = 'default';
const cases = (await readdir(VALID)).sort();

let env: Environment;
let output: string;
let transport: Transport;
const crds = new Map<string, CustomResourceDefinition[]>();

before(async () => {
  env = await startEnvironment();
  transport = transportFor(env.kubeConfig);
  output = await mkdtemp(join(tmpdir(), 'tsoperator-crds-'));
  for (const name of cases) {
    const files = generateManifests({ root: join(VALID, name), generators: [crdManifestGenerator] });
    writeManifests(join(output, name), files);
    crds.set(
      name,
      files.map((file) => load(file.content) as CustomResourceDefinition),
    );
  }
});

after(async () => {
  await env.stop();
  await rm(output, { recursive: true, force: true });
});

for (const name of cases) {
  describe(`fixture ${name}`, async () => {
    const samples = load(await readFile(join(VALID, name, 'samples.yaml'), 'utf8')) as Samples;

    it('installs and becomes Established', async () => {
      for (const crd of crds.get(name) ?? []) {
        await transport.request({ method: 'POST', path: CRD_PATH, body: crd });
        assert.equal(await establishedStatus(crd.metadata.name), 'True', crd.metadata.name);
        for (const version of crd.spec.versions.filter((v) => v.served)) await servedList(crd, version.name);
      }
    });

    it('accepts the valid samples', async () => {
      for (const sample of samples.valid) await create(name, sample, true);
    });

    for (const { base, ...expected } of samples.defaulted ?? []) {
      it(`fills in the defaults ${JSON.stringify(expected)}`, async () => {
        const stored = await create(name, samples.valid[base ?? 0] as KubeObject, true);
        assert.deepEqual(pick(stored, expected), expected);
      });
    }

    for (const invalid of samples.invalid ?? []) {
      it(`refuses: ${invalid.expect}`, async () => {
        const sample = mergePatch(samples.valid[invalid.base ?? 0], invalid.patch) as KubeObject;
        await assert.rejects(create(name, sample, true), matching(invalid.expect));
      });
    }

    for (const invalid of samples.invalidUpdates ?? []) {
      it(`refuses the update: ${invalid.expect}`, async () => {
        const original = samples.valid[invalid.base ?? 0] as KubeObject;
        const stored = (await create(
          name,
          { ...original, metadata: { name: `update-${randomSuffix()}` } },
          false,
        )) as KubeObject;
        const updated = mergePatch(stored, invalid.patch) as KubeObject;
        await assert.rejects(replace(name, updated), matching(invalid.expect));
      });
    }
  });
}

function target(fixture: string, object: KubeObject) {
  const [group = '', version = ''] = object.apiVersion.split('/');
  const crd = (crds.get(fixture) ?? []).find(
    (c) => c.spec.group === group && c.spec.names.kind === object.kind,
  );
  assert.ok(crd, `fixture ${fixture} has a CRD for ${object.apiVersion} ${object.kind}`);
  return { group, version, plural: crd.spec.names.plural, cluster: crd.spec.scope === 'Cluster' };
}

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** The Established condition once the API server has decided: True, or False when it refused the names. */
async function establishedStatus(name: string): Promise<string> {
  for (;;) {
    const crd = await transport.request<{ status?: { conditions?: { type: string; status: string }[] } }>({
      method: 'GET',
      path: `${CRD_PATH}/${name}`,
    });
    const conditions = crd.status?.conditions ?? [];
    const established = conditions.find((c) => c.type === 'Established')?.status;
    const namesRefused = conditions.some((c) => c.type === 'NamesAccepted' && c.status === 'False');
    if (established === 'True' || namesRefused) return established ?? 'False';
    await setTimeout(20);
  }
}

/** Waits until the new resource answers a list (discovery catches up just after Established). */
async function servedList(crd: CustomResourceDefinition, version: string): Promise<void> {
  const path = `/apis/${crd.spec.group}/${version}/${crd.spec.names.plural}`;
  for (;;) {
    const answer = await transport
      .request<{ items?: unknown[] }>({ method: 'GET', path })
      .catch((error: unknown) => {
        // 404 until discovery has the resource, 429 while its storage initialises.
        if (error instanceof ApiError && (error.code === 404 || error.code === 429)) return undefined;
        throw error;
      });
    if (answer) return;
    await setTimeout(20);
  }
}

function objectPath(fixture: string, object: KubeObject, name?: string): string {
  const { group, version, plural, cluster } = target(fixture, object);
  const scope = cluster ? '' : `/namespaces/${NAMESPACE}`;
  return `/apis/${group}/${version}${scope}/${plural}${name === undefined ? '' : `/${name}`}`;
}

async function create(fixture: string, object: KubeObject, dryRun: boolean): Promise<unknown> {
  const path = objectPath(fixture, object) + (dryRun ? '?dryRun=All' : '');
  return transport.request({ method: 'POST', path, body: object });
}

async function replace(fixture: string, object: KubeObject): Promise<unknown> {
  return transport.request({
    method: 'PUT',
    path: objectPath(fixture, object, object.metadata.name),
    body: object,
  });
}

/** Passes when the API server's refusal carries `expected` in its message. */
function matching(expected: string): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof ApiError, String(error));
    const text = error.status.message ?? error.message;
    assert.ok(
      text.includes(expected),
      `expected the API server to say ${JSON.stringify(expected)}, it said: ${text}`,
    );
    return true;
  };
}

/** RFC 7386 JSON merge patch: objects merge, null deletes, anything else replaces. */
function mergePatch(target: unknown, patch: Json): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const base = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  const result = base as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) Reflect.deleteProperty(result, key);
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/** The parts of `value` at the keys `shape` has, recursively into objects: what a subset assertion compares. */
function pick(value: unknown, shape: Json): unknown {
  if (shape === null || typeof shape !== 'object' || Array.isArray(shape)) return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(Object.entries(shape).map(([key, inner]) => [key, pick(object[key], inner)]));
}

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 8);
}

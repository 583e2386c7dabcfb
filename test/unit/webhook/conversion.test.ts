import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubernetesObject } from '@kubernetes/client-node';
import { defineKind, KindRegistry } from '../../../src/runtime/client/kind.ts';
import { convertReview } from '../../../src/runtime/webhook/conversion-handler.ts';
import { HubConverter } from '../../../src/runtime/webhook/conversion.ts';
import { WebhookServer } from '../../../src/runtime/webhook/webhook-server.ts';

interface Hub extends KubernetesObject {
  spec: { size: number };
}
interface V1 extends KubernetesObject {
  spec: { count: number };
}
interface V3 extends KubernetesObject {
  spec: { size: string };
}

const HubKind = defineKind<Hub>(
  { apiVersion: 'x.example.org/v2', kind: 'Thing', plural: 'things', namespaced: true },
  new KindRegistry(),
);

const spokes = {
  v1: {
    convertTo: (s: V1): Hub => ({ ...s, spec: { size: s.spec.count } }),
    convertFrom: (h: Hub): V1 => ({ ...h, spec: { count: h.spec.size } }),
  },
  v3: {
    convertTo: (s: V3): Hub => ({ ...s, spec: { size: Number(s.spec.size) } }),
    convertFrom: (h: Hub): V3 => ({ ...h, spec: { size: String(h.spec.size) } }),
  },
};

const thing = (apiVersion: string, spec: object): KubernetesObject & { spec: object } => ({
  apiVersion,
  kind: 'Thing',
  metadata: { name: 't' },
  spec,
});

describe('HubConverter', () => {
  const converter = new HubConverter(HubKind, spokes);

  it('converts spoke to spoke through the hub, and sets apiVersion and kind', () => {
    assert.deepEqual(
      converter.convert(thing('x.example.org/v1', { count: 3 }), 'x.example.org/v3'),
      thing('x.example.org/v3', { size: '3' }),
    );
    assert.deepEqual(
      converter.convert(thing('x.example.org/v3', { size: '4' }), 'x.example.org/v2'),
      thing('x.example.org/v2', { size: 4 }),
    );
  });

  it("keeps the source's metadata but for the labels and annotations a conversion sets", () => {
    const forgetful = new HubConverter(HubKind, {
      v1: {
        convertTo: (s: KubernetesObject) => ({ spec: s }),
        convertFrom: (h: KubernetesObject & { metadata?: object }) => ({
          metadata: { name: 'renamed', labels: { v: '1' } },
          spec: h,
        }),
      },
    } as never);
    const source = {
      ...thing('x.example.org/v2', { size: 1 }),
      metadata: { name: 't', uid: 'u', labels: { v: '2' }, annotations: { a: 'b' } },
    };
    assert.deepEqual(forgetful.convert(source, 'x.example.org/v1').metadata, {
      name: 't',
      uid: 'u',
      labels: { v: '1' },
    });
    assert.deepEqual(
      forgetful.convert({ ...source, apiVersion: 'x.example.org/v1' }, 'x.example.org/v2').metadata,
      source.metadata,
    );
  });

  it('returns an object already at the desired version as it is', () => {
    const obj = thing('x.example.org/v1', { count: 1 });
    assert.equal(converter.convert(obj, 'x.example.org/v1'), obj);
  });

  it('fails a review naming the version or kind it cannot convert', () => {
    const review = (objects: object[]) =>
      convertReview(new Map([[converter.groupKind, converter]]), {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        request: { uid: 'u', desiredAPIVersion: 'x.example.org/v1', objects },
      });
    assert.deepEqual(review([thing('x.example.org/v9', {})]).result, {
      status: 'Failure',
      message: 'Thing.x.example.org cannot be converted from or to x.example.org/v9',
    });
    assert.deepEqual(review([{ apiVersion: 'y.example.org/v1', kind: 'Other' }]).result, {
      status: 'Failure',
      message: 'no conversion is registered for Other.y.example.org',
    });
  });

  it('refuses the hub version as a spoke, and a kind registered twice', () => {
    assert.throws(() => new HubConverter(HubKind, { v2: spokes.v1 }), /v2 is the hub/);
    const server = new WebhookServer();
    // The spokes' types are inferred from their functions.
    server.registerConversion(HubKind, spokes);
    assert.throws(() => server.registerConversion(HubKind, spokes), /already registered/);
  });
});

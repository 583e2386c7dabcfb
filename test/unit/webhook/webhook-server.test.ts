import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { ValidationError } from '../../../src/runtime/webhook/validation-error.ts';
import { WebhookServer } from '../../../src/runtime/webhook/webhook-server.ts';
import { admissionReview, app, AppKind, post, type App } from './support.ts';

interface AppV2 extends App {
  spec?: { instances?: number; image?: string; ports?: number[] };
}

describe('WebhookServer', () => {
  const registry = new Registry();
  const server = new WebhookServer({ port: 0, host: '127.0.0.1', registry });
  server.registerDefaulter(AppKind, {
    default(obj) {
      obj.spec ??= {};
      obj.spec.replicas ??= 1;
      obj.spec.ports ??= [80];
    },
  });
  server.registerValidator(AppKind, {
    validateCreate(obj) {
      if ((obj.spec?.replicas ?? 0) < 1)
        throw new ValidationError([
          { field: 'spec.replicas', value: obj.spec?.replicas, message: 'must be at least 1' },
        ]);
      if ((obj.spec?.replicas ?? 0) > 5) return ['more than 5 replicas'];
    },
    validateUpdate(oldObj, obj) {
      if (oldObj.spec?.image !== obj.spec?.image) throw new Error('the image cannot change');
    },
  });
  server.registerConversion<App, { v2: AppV2 }>(AppKind, {
    v2: {
      convertTo: ({ spec: { instances, ...rest } = {}, ...obj }) => ({
        ...obj,
        spec: { ...rest, replicas: instances },
      }),
      convertFrom: ({ spec: { replicas, ...rest } = {}, ...obj }) => ({
        ...obj,
        spec: { ...rest, instances: replicas },
      }),
    },
  });

  before(() => server.start());
  after(() => server.close());

  it('serves on the paths controller-runtime builds', () => {
    assert.equal(
      server.registerDefaulter({ ...AppKind, kind: 'Other' }, { default: () => undefined }),
      '/mutate-demo-example-org-v1-other',
    );
    assert.throws(
      () => server.registerValidator(AppKind, {}),
      /already registered on \/validate-demo-example-org-v1-app/,
    );
  });

  it('returns the running server when started again, as the manager does after `npm start` did', async () => {
    const again = await server.start();
    assert.equal(again.url, server.url);
  });

  it('answers a defaulter with the JSON patch of its changes', async () => {
    const res = await post(
      server,
      '/mutate-demo-example-org-v1-app',
      admissionReview('CREATE', { object: app({ image: 'nginx' }) }),
    );
    assert.equal(res.status, 200);
    const { response } = res.body as {
      response: { uid: string; allowed: boolean; patch: string; patchType: string };
    };
    assert.equal(response.uid, 'uid-1');
    assert.equal(response.allowed, true);
    assert.equal(response.patchType, 'JSONPatch');
    assert.deepEqual(JSON.parse(Buffer.from(response.patch, 'base64').toString()), [
      { op: 'add', path: '/spec/replicas', value: 1 },
      { op: 'add', path: '/spec/ports', value: [80] },
    ]);
  });

  it('admits a complete object with no patch, and a DELETE untouched', async () => {
    for (const review of [
      admissionReview('CREATE', { object: app({ replicas: 2, ports: [80] }) }),
      admissionReview('DELETE', { oldObject: app({}) }),
    ]) {
      const res = await post(server, '/mutate-demo-example-org-v1-app', review);
      assert.deepEqual((res.body as { response: object }).response, { uid: 'uid-1', allowed: true });
    }
  });

  it("refuses an invalid object with the API server's Invalid status, and passes warnings on", async () => {
    const denied = await post(
      server,
      '/validate-demo-example-org-v1-app',
      admissionReview('CREATE', { object: app({ replicas: 0 }) }),
    );
    const { response } = denied.body as {
      response: { allowed: boolean; status: { code: number; reason: string; message: string } };
    };
    assert.equal(response.allowed, false);
    assert.equal(response.status.code, 422);
    assert.equal(response.status.reason, 'Invalid');
    assert.equal(
      response.status.message,
      'App.demo.example.org "web" is invalid: spec.replicas: Invalid value: 0: must be at least 1',
    );
    const warned = await post(
      server,
      '/validate-demo-example-org-v1-app',
      admissionReview('CREATE', { object: app({ replicas: 9 }) }),
    );
    assert.deepEqual((warned.body as { response: object }).response, {
      uid: 'uid-1',
      allowed: true,
      warnings: ['more than 5 replicas'],
    });
  });

  it('refuses with 403 when a validator throws a plain error, and admits what it does not check', async () => {
    const update = admissionReview('UPDATE', { oldObject: app({ image: 'a' }), object: app({ image: 'b' }) });
    const res = await post(server, '/validate-demo-example-org-v1-app', update);
    assert.deepEqual((res.body as { response: object }).response, {
      uid: 'uid-1',
      allowed: false,
      status: { code: 403, reason: 'Forbidden', message: 'the image cannot change' },
    });
    const del = await post(
      server,
      '/validate-demo-example-org-v1-app',
      admissionReview('DELETE', { oldObject: app({}) }),
    );
    assert.equal((del.body as { response: { allowed: boolean } }).response.allowed, true);
  });

  it('converts between the hub and a spoke, both ways', async () => {
    const review = (desiredAPIVersion: string, objects: object[]): object => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { uid: 'c-1', desiredAPIVersion, objects },
    });
    const v1 = app({ replicas: 3, image: 'nginx' });
    const toV2 = await post(server, '/convert', review('demo.example.org/v2', [v1]));
    const v2 = {
      apiVersion: 'demo.example.org/v2',
      kind: 'App',
      metadata: v1.metadata,
      spec: { instances: 3, image: 'nginx' },
    };
    assert.deepEqual(toV2.body, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      response: { uid: 'c-1', convertedObjects: [v2], result: { status: 'Success' } },
    });
    const back = await post(server, '/convert', review('demo.example.org/v1', [v2]));
    assert.deepEqual((back.body as { response: { convertedObjects: object[] } }).response.convertedObjects, [
      v1,
    ]);
    const unknown = await post(server, '/convert', review('demo.example.org/v9', [v1]));
    assert.deepEqual((unknown.body as { response: { result: object } }).response.result, {
      status: 'Failure',
      message: 'App.demo.example.org cannot be converted from or to demo.example.org/v9',
    });
  });

  it('answers malformed requests with 400 and the reason, and keeps serving', async () => {
    const path = '/validate-demo-example-org-v1-app';
    const cases: [unknown, string, RegExp][] = [
      ['{not json', 'application/json', /not JSON/],
      ['', 'application/json', /body is empty/],
      [{ kind: 'AdmissionReview' }, 'text/plain', /not application\/json/],
      [
        { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' },
        'application/json',
        /expected kind AdmissionReview of admission.k8s.io\/v1 or admission.k8s.io\/v1beta1, got apiextensions.k8s.io\/v1 ConversionReview/,
      ],
      [{ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }, 'application/json', /has no request/],
      [[1, 2], 'application/json', /not a JSON object/],
      [admissionReview('CREATE', {}), 'application/json', /CREATE request has no object/],
    ];
    for (const [body, contentType, reason] of cases) {
      const res = await post(server, path, body, contentType);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match((res.body as { message: string }).message, reason);
    }
    const convert = await post(server, '/convert', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { uid: 'x' },
    });
    assert.equal(convert.status, 400);
    assert.equal((await post(server, '/nothing-here', {})).status, 404);
    const ok = await post(server, path, admissionReview('CREATE', { object: app({ replicas: 1 }) }));
    assert.equal(ok.status, 200);
  });

  it('refuses a body over the size limit with 413, and a method other than POST with 405', async () => {
    const small = new WebhookServer({
      port: 0,
      host: '127.0.0.1',
      registry: new Registry(),
      maxRequestBytes: 64,
    });
    small.registerValidator(AppKind, {});
    await small.start();
    try {
      const big = await post(
        small,
        '/validate-demo-example-org-v1-app',
        admissionReview('CREATE', { object: app({}) }),
      );
      assert.equal(big.status, 413);
      assert.equal((big.body as { reason: string }).reason, 'RequestEntityTooLarge');
      const put = await post(small, '/validate-demo-example-org-v1-app', '{}', 'application/json', 'PUT');
      assert.equal(put.status, 405);
      assert.equal((put.body as { reason: string }).reason, 'MethodNotAllowed');
    } finally {
      await small.close();
    }
  });

  it('counts requests by path and HTTP code in controller_runtime_webhook_* metrics', async () => {
    await post(server, '/mutate-demo-example-org-v1-app', 'garbage');
    const text = await registry.metrics();
    assert.match(
      text,
      /controller_runtime_webhook_requests_total\{webhook="\/mutate-demo-example-org-v1-app",code="200"\} [1-9]/,
    );
    assert.match(
      text,
      /controller_runtime_webhook_requests_total\{webhook="\/mutate-demo-example-org-v1-app",code="400"\} 1/,
    );
    assert.match(text, /controller_runtime_webhook_latency_seconds_count\{webhook="\/convert"\} [1-9]/);
    assert.match(text, /controller_runtime_webhook_requests_in_flight\{webhook="\/convert"\} 0/);
  });
});

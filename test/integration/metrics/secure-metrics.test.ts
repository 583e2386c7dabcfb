import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect as http2Connect } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { Counter, Registry } from 'prom-client';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { ConfigMapKind } from '../../../src/runtime/client/kinds.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { Manager } from '../../../src/runtime/manager/manager.ts';
import type { ManagerOptions } from '../../../src/runtime/manager/manager-options.ts';
import { MissingPermissionsError } from '../../../src/runtime/manager/permission-check.ts';
import {
  startMetricsServer,
  type MetricsServerOptions,
} from '../../../src/runtime/metrics/metrics-server.ts';
import { done } from '../../../src/runtime/reconcile/result.ts';
import type { RunningServer } from '../../../src/runtime/server/http-server.ts';
import { CertificateAuthority } from '../../../src/runtime/tls/certificate-authority.ts';
import { eventually } from '../../support/eventually.ts';
import { httpsGet } from '../../support/https-get.ts';
import { ObservedTransport } from '../../support/observed-transport.ts';
import {
  METRICS_AUTH_RULES,
  METRICS_READER_RULES,
  grantClusterRole,
  serviceAccountToken,
  waitForAccess,
} from './rbac.ts';

const TOKEN_REVIEWS = '/apis/authentication.k8s.io/v1/tokenreviews';
const ACCESS_REVIEWS = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
const ca = CertificateAuthority.create('metrics-test-ca');

let env: Environment;
let certDir: string;
let readerToken: string;
let strangerToken: string;

before(async () => {
  env = await startEnvironment();
  certDir = await mkdtemp(join(tmpdir(), 'metrics-certs-'));
  const pair = ca.issue({ commonName: 'metrics', usage: 'server', hosts: ['127.0.0.1'] });
  await writeFile(join(certDir, 'tls.crt'), pair.cert);
  await writeFile(join(certDir, 'tls.key'), pair.key);
  const admin = env.kubeConfig;
  await admin.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'monitoring' } } });
  readerToken = await serviceAccountToken(admin, 'monitoring', 'prometheus');
  strangerToken = await serviceAccountToken(admin, 'monitoring', 'stranger');
  const prometheus = { kind: 'ServiceAccount', name: 'prometheus', namespace: 'monitoring' };
  await grantClusterRole(admin, 'metrics-reader', METRICS_READER_RULES, prometheus);
  await grantClusterRole(admin, 'metrics-auth', METRICS_AUTH_RULES, {
    kind: 'User',
    apiGroup: 'rbac.authorization.k8s.io',
    name: 'metrics-server',
  });
  await waitForAccess(
    admin,
    'system:serviceaccount:monitoring:prometheus',
    { nonResourcePath: '/metrics' },
    true,
  );
  for (const resource of [
    { group: 'authentication.k8s.io', resource: 'tokenreviews', verb: 'create' },
    { group: 'authorization.k8s.io', resource: 'subjectaccessreviews', verb: 'create' },
  ]) {
    await waitForAccess(admin, 'metrics-server', { resource }, true);
  }
});

after(async () => {
  await env.stop();
  await rm(certDir, { recursive: true, force: true });
});

/** A registry with one known counter, so a 200 is seen to carry the metrics. */
function registryWithCounter(): Registry {
  const registry = new Registry();
  new Counter({ name: 'test_scrapes_total', help: 'Scrapes.', registers: [registry] }).inc(5);
  return registry;
}

/** A metrics server on a free loopback port that reviews its callers as `identity`. */
function startAs(identity: KubeConfig, options: MetricsServerOptions = {}): Promise<RunningServer> {
  return startMetricsServer({
    port: 0,
    host: '127.0.0.1',
    registry: registryWithCounter(),
    processMetrics: false,
    certPath: certDir,
    auth: { transport: transportFor(identity) },
    ...options,
  });
}

function tlsHandshake(
  server: RunningServer,
  options: { ALPNProtocols?: string[]; ca?: string },
): Promise<{ protocol: string | false; peer: PeerCertificate }> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      host: '127.0.0.1',
      port: server.port,
      rejectUnauthorized: !!options.ca,
      ...options,
    });
    socket.once('secureConnect', () => {
      resolve({ protocol: socket.alpnProtocol ?? false, peer: socket.getPeerCertificate() });
      socket.end();
    });
    socket.once('error', reject);
  });
}

function http2Session(server: RunningServer): Promise<void> {
  return new Promise((resolve, reject) => {
    const session = http2Connect(server.url, { ca: ca.cert });
    session.once('connect', () => session.close(() => resolve()));
    session.once('error', reject);
  });
}

describe('the secure metrics server, run as an identity holding only the metrics-auth role', () => {
  const clock = new FakeClock();
  let transport: ObservedTransport;
  let server: RunningServer;

  before(async () => {
    const identity = await env.addUser('metrics-server');
    transport = new ObservedTransport(transportFor(identity.kubeConfig));
    server = await startAs(identity.kubeConfig, { auth: { transport, clock } });
  });
  after(() => server.close());

  it('serves /metrics over HTTPS to a ServiceAccount bound to metrics-reader', async () => {
    assert.match(server.url, /^https:/);
    const answer = await httpsGet(`${server.url}/metrics`, { ca: ca.cert, token: readerToken });
    assert.equal(answer.status, 200);
    assert.match(answer.body, /^test_scrapes_total 5$/m);
  });

  it('answers 403 to a valid token of a ServiceAccount without the role', async () => {
    const answer = await httpsGet(`${server.url}/metrics`, { ca: ca.cert, token: strangerToken });
    assert.equal(answer.status, 403);
    assert.equal(answer.body, 'Authorization denied for user system:serviceaccount:monitoring:stranger\n');
  });

  it('answers 401 without a token, and to a token the API server does not know', async () => {
    assert.equal((await httpsGet(`${server.url}/metrics`, { ca: ca.cert })).status, 401);
    const forged = await httpsGet(`${server.url}/metrics`, {
      ca: ca.cert,
      token: `${readerToken.slice(0, -4)}AAAA`,
    });
    assert.equal(forged.status, 401);
  });

  it('checks even paths it does not serve: 401 before 404', async () => {
    assert.equal((await httpsGet(`${server.url}/other`, { ca: ca.cert })).status, 401);
    assert.equal((await httpsGet(`${server.url}/other`, { ca: ca.cert, token: readerToken })).status, 403);
  });

  it('fails plain HTTP sent to its port', async () => {
    await assert.rejects(fetch(`http://127.0.0.1:${server.port}/metrics`));
  });

  it('refuses HTTP/2: ALPN settles on http/1.1 and an h2-only client cannot connect', async () => {
    assert.equal(
      (await tlsHandshake(server, { ca: ca.cert, ALPNProtocols: ['h2', 'http/1.1'] })).protocol,
      'http/1.1',
    );
    await assert.rejects(http2Session(server));
  });

  it('reuses reviews: TokenReviews for a minute, SubjectAccessReviews for 10 s', async () => {
    const scrape = async (): Promise<number> =>
      (await httpsGet(`${server.url}/metrics`, { ca: ca.cert, token: readerToken })).status;
    clock.advance(60_000);
    const before = {
      tokens: transport.posts.get(TOKEN_REVIEWS) ?? 0,
      access: transport.posts.get(ACCESS_REVIEWS) ?? 0,
    };
    const counts = (): { tokens: number; access: number } => ({
      tokens: (transport.posts.get(TOKEN_REVIEWS) ?? 0) - before.tokens,
      access: (transport.posts.get(ACCESS_REVIEWS) ?? 0) - before.access,
    });
    assert.deepEqual([await scrape(), await scrape(), await scrape()], [200, 200, 200]);
    assert.deepEqual(counts(), { tokens: 1, access: 1 });
    clock.advance(10_000);
    assert.equal(await scrape(), 200);
    assert.deepEqual(counts(), { tokens: 1, access: 2 });
    clock.advance(50_000);
    assert.equal(await scrape(), 200);
    assert.deepEqual(counts(), { tokens: 2, access: 3 });
  });
});

describe('the secure metrics server, other configurations', () => {
  it('answers 500 when its identity may not create TokenReviews', async () => {
    const server = await startAs((await env.addUser('unprivileged-metrics')).kubeConfig);
    try {
      const answer = await httpsGet(`${server.url}/metrics`, { ca: ca.cert, token: readerToken });
      assert.equal(answer.status, 500);
    } finally {
      await server.close();
    }
  });

  it('serves a self-signed certificate when given no certificate folder, still behind authentication', async () => {
    const server = await startAs((await env.addUser('metrics-server')).kubeConfig, { certPath: '' });
    try {
      const { peer } = await tlsHandshake(server, {});
      assert.equal(peer.subject.CN, 'metrics');
      assert.match(peer.subjectaltname ?? '', /IP Address:127\.0\.0\.1/);
      assert.equal((await httpsGet(`${server.url}/metrics`, {})).status, 401);
    } finally {
      await server.close();
    }
  });

  it('serves the pair named by certName and keyName', async () => {
    const other = ca.issue({ commonName: 'other', usage: 'server', hosts: ['127.0.0.1'] });
    // tls.crt in the folder is another certificate: the names, not the defaults, must be read.
    const dir = await mkdtemp(join(tmpdir(), 'metrics-named-'));
    await writeFile(join(dir, 'tls.crt'), other.cert);
    await writeFile(join(dir, 'tls.key'), other.key);
    const named = ca.issue({ commonName: 'named', usage: 'server', hosts: ['127.0.0.1'] });
    await writeFile(join(dir, 'metrics.pem'), named.cert);
    await writeFile(join(dir, 'metrics-key.pem'), named.key);
    const server = await startAs((await env.addUser('metrics-named')).kubeConfig, {
      certPath: dir,
      certName: 'metrics.pem',
      keyName: 'metrics-key.pem',
    });
    try {
      const { peer } = await tlsHandshake(server, { ca: ca.cert });
      assert.equal(peer.subject.CN, 'named');
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('speaks HTTP/2 when enableHttp2 is set', async () => {
    const server = await startAs((await env.addUser('metrics-server')).kubeConfig, { enableHttp2: true });
    try {
      assert.equal((await tlsHandshake(server, { ca: ca.cert, ALPNProtocols: ['h2'] })).protocol, 'h2');
      await http2Session(server);
      const answer = await httpsGet(`${server.url}/metrics`, { ca: ca.cert, token: readerToken });
      assert.equal(answer.status, 200);
    } finally {
      await server.close();
    }
  });
});

describe('the manager', () => {
  const managerOptions = (kubeConfig: KubeConfig): ManagerOptions => ({
    kubeConfig,
    metricsBindAddress: '127.0.0.1:0',
    metricsCertPath: certDir,
    healthProbeBindAddress: '0',
    registry: registryWithCounter(),
    handleSignals: false,
  });

  it('serves /metrics over HTTPS to metrics-reader only, by default', async () => {
    const mgr = await Manager.create(managerOptions(env.kubeConfig));
    mgr.controller(ConfigMapKind).complete({ reconcile: async () => done() });
    const stop = new AbortController();
    const running = mgr.start(stop.signal);
    try {
      const url = await eventually(async () => mgr.metricsUrl, 'the metrics server to listen');
      assert.match(url, /^https:/);
      const answer = await httpsGet(`${url}/metrics`, { ca: ca.cert, token: readerToken });
      assert.equal(answer.status, 200);
      assert.match(answer.body, /^test_scrapes_total 5$/m);
      assert.equal((await httpsGet(`${url}/metrics`, { ca: ca.cert, token: strangerToken })).status, 403);
      assert.equal((await httpsGet(`${url}/metrics`, { ca: ca.cert })).status, 401);
    } finally {
      stop.abort();
      await running;
    }
  });

  it('does not start without the metrics-auth role, and names what is missing', async () => {
    const identity = await env.addUser('operator-without-metrics-auth');
    const mgr = await Manager.create(managerOptions(identity.kubeConfig));
    await assert.rejects(mgr.start(new AbortController().signal), (err: unknown) => {
      assert.ok(err instanceof MissingPermissionsError);
      assert.match(err.message, /groups=authentication\.k8s\.io,resources=tokenreviews,verbs=create/);
      assert.match(err.message, /groups=authorization\.k8s\.io,resources=subjectaccessreviews,verbs=create/);
      return true;
    });
  });
});

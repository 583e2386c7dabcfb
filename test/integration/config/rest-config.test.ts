import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dump, load } from 'js-yaml';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { isUnauthorized } from '../../../src/runtime/client/api-error.ts';
import { newClient, type Client } from '../../../src/runtime/client/client.ts';
import { NamespaceKind } from '../../../src/runtime/client/kinds.ts';
import { transportFor } from '../../../src/runtime/client/transport.ts';
import { FakeClock } from '../../../src/runtime/clock/fake-clock.ts';
import { KubeconfigError } from '../../../src/runtime/config/kubeconfig-file.ts';
import { loadRestConfig } from '../../../src/runtime/config/load-rest-config.ts';
import type { RestConfig } from '../../../src/runtime/config/rest-config.ts';
import { TOKEN_FILE_REFRESH_MS } from '../../../src/runtime/config/token-file-credentials.ts';
import { Manager } from '../../../src/runtime/manager/manager.ts';

const NAMESPACE = 'kubeconfig-forms';

interface AdminFiles {
  readonly server: string;
  readonly caPem: string;
  readonly certPem: string;
  readonly keyPem: string;
}

/** Who the API server says the config authenticates as (SelfSubjectReview). */
async function whoAmI(config: RestConfig): Promise<string> {
  const review = await transportFor(config).request<{ status?: { userInfo?: { username?: string } } }>({
    method: 'POST',
    path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  return review.status?.userInfo?.username ?? '';
}

const b64 = (text: string): string => Buffer.from(text).toString('base64');

describe('kubeconfig forms against a real API server', () => {
  let env: Environment;
  let admin: Client;
  let files: AdminFiles;
  let dir: string;
  const tokens = new Map<string, string>();

  const tokenOf = (name: string): string => {
    const token = tokens.get(name);
    assert.ok(token, `a token for ${name}`);
    return token;
  };
  const serviceAccountUser = (name: string): string => `system:serviceaccount:${NAMESPACE}:${name}`;

  /** A kubeconfig with one context `main`, written to `dir/name`. */
  const writeConfig = async (
    name: string,
    user: Record<string, unknown>,
    cluster: Record<string, unknown> = {
      server: files.server,
      'certificate-authority-data': b64(files.caPem),
    },
    extra: Record<string, unknown> = {},
  ): Promise<string> => {
    const path = join(dir, name);
    await writeFile(
      path,
      dump({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster }],
        users: [{ name: 'u', user }],
        contexts: [{ name: 'main', context: { cluster: 'c', user: 'u', namespace: 'team-a' } }],
        'current-context': 'main',
        ...extra,
      }),
    );
    return path;
  };

  /** An executable plugin that counts its runs and prints what `credential` (a JSON file) holds. */
  const writePlugin = async (
    name: string,
  ): Promise<{ path: string; credential: string; runs: string; info: string }> => {
    const path = join(dir, `${name}.sh`);
    const credential = join(dir, `${name}.json`);
    const runs = join(dir, `${name}.runs`);
    const info = join(dir, `${name}.info`);
    await writeFile(
      path,
      `#!/bin/sh\necho run >> '${runs}'\nprintf '%s' "$KUBERNETES_EXEC_INFO" > '${info}'\ncat '${credential}'\n`,
    );
    await chmod(path, 0o755);
    return { path, credential, runs, info };
  };
  const runsOf = async (runs: string): Promise<number> =>
    (await readFile(runs, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

  before(async () => {
    env = await startEnvironment();
    dir = join(env.dir, 'kubeconfigs');
    await mkdir(dir);
    const written = load(await readFile(env.admin.kubeconfigPath, 'utf8')) as {
      clusters: [{ cluster: { server: string; 'certificate-authority-data': string } }];
      users: [{ user: { 'client-certificate-data': string; 'client-key-data': string } }];
    };
    const fromB64 = (s: string): string => Buffer.from(s, 'base64').toString('utf8');
    const [{ cluster }] = written.clusters;
    const [{ user }] = written.users;
    files = {
      server: cluster.server,
      caPem: fromB64(cluster['certificate-authority-data']),
      certPem: fromB64(user['client-certificate-data']),
      keyPem: fromB64(user['client-key-data']),
    };
    admin = newClient({ kubeConfig: env.kubeConfig });
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    for (const name of ['alice', 'bob', 'carol']) {
      await admin.create({
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name, namespace: NAMESPACE },
      });
      const request = await transportFor(env.kubeConfig).request<{ status: { token: string } }>({
        method: 'POST',
        path: `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/${name}/token`,
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { expirationSeconds: 3600 },
        },
      });
      tokens.set(name, request.status.token);
    }
  });
  after(async () => {
    await env?.stop();
  });

  it('authenticates with client certificate and CA data, and takes the context namespace', async () => {
    const path = await writeConfig('data', {
      'client-certificate-data': b64(files.certPem),
      'client-key-data': b64(files.keyPem),
    });
    const config = loadRestConfig({ kubeconfig: path });
    assert.equal(config.namespace, 'team-a');
    assert.equal(await whoAmI(config), 'admin');
  });

  it('reads the CA, certificate and key from files named relative to the kubeconfig', async () => {
    await mkdir(join(dir, 'pki'), { recursive: true });
    await writeFile(join(dir, 'pki', 'ca.crt'), files.caPem);
    await writeFile(join(dir, 'pki', 'admin.crt'), files.certPem);
    await writeFile(join(dir, 'pki', 'admin.key'), files.keyPem);
    const path = await writeConfig(
      'files',
      { 'client-certificate': 'pki/admin.crt', 'client-key': 'pki/admin.key' },
      { server: files.server, 'certificate-authority': 'pki/ca.crt' },
    );
    assert.equal(await whoAmI(loadRestConfig({ kubeconfig: path, env: { HOME: '/nonexistent' } })), 'admin');
  });

  it('merges the files of KUBECONFIG as kubectl does, skipping missing ones, and honours --context', async () => {
    const first = join(dir, 'merge-first');
    const second = join(dir, 'merge-second');
    const cluster = {
      name: 'c',
      cluster: { server: files.server, 'certificate-authority-data': b64(files.caPem) },
    };
    await writeFile(
      first,
      dump({
        clusters: [cluster],
        users: [{ name: 'alice', user: { token: tokenOf('alice') } }],
        contexts: [{ name: 'shared', context: { cluster: 'c', user: 'alice' } }],
        'current-context': 'shared',
      }),
    );
    await writeFile(
      second,
      dump({
        users: [
          { name: 'alice', user: { token: tokenOf('carol') } },
          { name: 'bob', user: { token: tokenOf('bob') } },
        ],
        contexts: [
          { name: 'shared', context: { cluster: 'c', user: 'bob' } },
          { name: 'other', context: { cluster: 'c', user: 'bob', namespace: 'team-b' } },
        ],
        'current-context': 'other',
      }),
    );
    const KUBECONFIG = [join(dir, 'missing'), first, second].join(':');
    // The first file's current-context, context and user win.
    assert.equal(await whoAmI(loadRestConfig({ env: { KUBECONFIG } })), serviceAccountUser('alice'));
    const other = loadRestConfig({ env: { KUBECONFIG }, context: 'other' });
    assert.equal(other.namespace, 'team-b');
    assert.equal(await whoAmI(other), serviceAccountUser('bob'));
    assert.throws(
      () => loadRestConfig({ env: { KUBECONFIG }, context: 'nope' }),
      /no context "nope" \(it has shared, other\)/,
    );
  });

  it('sends a token, and impersonates the user, groups, uid and extra the kubeconfig names', async () => {
    const path = await writeConfig('token', { token: tokenOf('alice') });
    assert.equal(await whoAmI(loadRestConfig({ kubeconfig: path })), serviceAccountUser('alice'));
    const impersonating = await writeConfig('as', {
      'client-certificate-data': b64(files.certPem),
      'client-key-data': b64(files.keyPem),
      as: serviceAccountUser('bob'),
      'as-groups': ['system:authenticated', 'team-b'],
      'as-uid': 'uid-of-bob',
      'as-user-extra': { 'example.org/team': ['b'] },
    });
    const review = await transportFor(loadRestConfig({ kubeconfig: impersonating })).request<{
      status: {
        userInfo: { username: string; uid: string; groups: string[]; extra: Record<string, string[]> };
      };
    }>({
      method: 'POST',
      path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    assert.deepEqual(review.status.userInfo, {
      username: serviceAccountUser('bob'),
      uid: 'uid-of-bob',
      groups: ['system:authenticated', 'team-b'],
      extra: { 'example.org/team': ['b'] },
    });
  });

  it('re-reads a tokenFile every minute, and at once after the server rejects the token', async () => {
    const tokenFile = join(dir, 'rotated-token');
    await writeFile(tokenFile, tokenOf('alice'));
    const clock = new FakeClock();
    const config = loadRestConfig({ kubeconfig: await writeConfig('token-file', { tokenFile }), clock });
    assert.equal(await whoAmI(config), serviceAccountUser('alice'));

    // Rotated in place, as the kubelet rotates a projected token: read within a minute.
    await writeFile(tokenFile, tokenOf('bob'));
    assert.equal(await whoAmI(config), serviceAccountUser('alice'));
    clock.advance(TOKEN_FILE_REFRESH_MS);
    assert.equal(await whoAmI(config), serviceAccountUser('bob'));

    // An invalid token is dropped at its 401: the next request reads the file again.
    await writeFile(tokenFile, 'not-a-token');
    clock.advance(TOKEN_FILE_REFRESH_MS);
    await assert.rejects(whoAmI(config), isUnauthorized);
    await writeFile(tokenFile, tokenOf('carol'));
    assert.equal(await whoAmI(config), serviceAccountUser('carol'));
  });

  it('runs a v1 exec plugin once per credential, again after its expiry, and hands it the cluster', async () => {
    const plugin = await writePlugin('exec-v1');
    const clock = new FakeClock(Date.UTC(2030, 0, 1));
    const credential = (token: string, expires: string): string =>
      JSON.stringify({
        apiVersion: 'client.authentication.k8s.io/v1',
        kind: 'ExecCredential',
        status: { token, expirationTimestamp: expires },
      });
    await writeFile(plugin.credential, credential(tokenOf('alice'), '2030-01-01T00:10:00Z'));
    const path = await writeConfig(
      'exec-v1',
      {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: plugin.path,
          args: ['--cluster', 'envtest'],
          env: [{ name: 'PLUGIN_MODE', value: 'test' }],
          interactiveMode: 'Never',
          provideClusterInfo: true,
        },
      },
      {
        server: files.server,
        'certificate-authority-data': b64(files.caPem),
        extensions: [{ name: 'client.authentication.k8s.io/exec', extension: { audience: 'envtest' } }],
      },
    );
    const config = loadRestConfig({ kubeconfig: path, clock });
    const names = await Promise.all([whoAmI(config), whoAmI(config), whoAmI(config)]);
    assert.deepEqual(names, Array(3).fill(serviceAccountUser('alice')));
    assert.equal(
      await runsOf(plugin.runs),
      1,
      'concurrent requests share one run, and later ones the credential',
    );

    const info = JSON.parse(await readFile(plugin.info, 'utf8')) as {
      kind: string;
      spec: {
        interactive: boolean;
        cluster: { server: string; 'certificate-authority-data': string; config: unknown };
      };
    };
    assert.equal(info.kind, 'ExecCredential');
    assert.equal(info.spec.interactive, false);
    assert.equal(info.spec.cluster.server, files.server);
    assert.equal(
      Buffer.from(info.spec.cluster['certificate-authority-data'], 'base64').toString(),
      files.caPem,
    );
    assert.deepEqual(info.spec.cluster.config, { audience: 'envtest' });

    await writeFile(plugin.credential, credential(tokenOf('bob'), '2030-01-01T01:00:00Z'));
    clock.advance(9 * 60_000);
    assert.equal(await whoAmI(config), serviceAccountUser('alice'), 'still before the expiry');
    clock.advance(60_000);
    assert.equal(await whoAmI(config), serviceAccountUser('bob'));
    assert.equal(await runsOf(plugin.runs), 2);
  });

  it('runs a v1beta1 exec plugin that hands out a client certificate, and again after a 401', async () => {
    const plugin = await writePlugin('exec-v1beta1');
    const printCertificate = (): Promise<void> =>
      writeFile(
        plugin.credential,
        JSON.stringify({
          apiVersion: 'client.authentication.k8s.io/v1beta1',
          kind: 'ExecCredential',
          status: { clientCertificateData: files.certPem, clientKeyData: files.keyPem },
        }),
      );
    await writeFile(
      plugin.credential,
      JSON.stringify({
        apiVersion: 'client.authentication.k8s.io/v1beta1',
        kind: 'ExecCredential',
        status: { token: 'revoked-token' },
      }),
    );
    const path = await writeConfig('exec-v1beta1', {
      exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: plugin.path },
    });
    const config = loadRestConfig({ kubeconfig: path });
    await assert.rejects(whoAmI(config), isUnauthorized);
    await printCertificate();
    assert.equal(
      await whoAmI(config),
      'admin',
      'the rejected credential was dropped and the plugin run again',
    );
    assert.equal(await runsOf(plugin.runs), 2);
  });

  it('refuses an exec plugin that is missing, or that needs a terminal, saying what to do', async () => {
    const missing = await writeConfig('exec-missing', {
      exec: {
        apiVersion: 'client.authentication.k8s.io/v1',
        command: 'no-such-credential-plugin',
        interactiveMode: 'IfAvailable',
        installHint: 'install it with: brew install no-such-credential-plugin',
      },
    });
    await assert.rejects(
      whoAmI(loadRestConfig({ kubeconfig: missing })),
      /no-such-credential-plugin: not found\ninstall it with/,
    );
    const interactive = await writeConfig('exec-always', {
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'login', interactiveMode: 'Always' },
    });
    assert.throws(
      () => loadRestConfig({ kubeconfig: interactive }),
      (err: unknown) => {
        assert.ok(err instanceof KubeconfigError);
        assert.match(err.message, /wants a terminal \(interactiveMode Always\)/);
        return true;
      },
    );
  });

  it('checks the server name against tls-server-name, and skips verification when told to', async () => {
    const admin = { 'client-certificate-data': b64(files.certPem), 'client-key-data': b64(files.keyPem) };
    const ca = b64(files.caPem);
    const named = await writeConfig('tls-name', admin, {
      server: files.server,
      'certificate-authority-data': ca,
      'tls-server-name': 'localhost',
    });
    assert.equal(await whoAmI(loadRestConfig({ kubeconfig: named })), 'admin');
    const wrong = await writeConfig('tls-wrong-name', admin, {
      server: files.server,
      'certificate-authority-data': ca,
      'tls-server-name': 'not-the-api-server.example',
    });
    await assert.rejects(whoAmI(loadRestConfig({ kubeconfig: wrong })), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });

    const untrusted = await writeConfig('tls-untrusted', admin, { server: files.server });
    await assert.rejects(whoAmI(loadRestConfig({ kubeconfig: untrusted })), {
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
    const insecure = await writeConfig('tls-insecure', admin, {
      server: files.server,
      'insecure-skip-tls-verify': true,
    });
    assert.equal(await whoAmI(loadRestConfig({ kubeconfig: insecure })), 'admin');
  });

  it('tunnels through proxy-url', async () => {
    let tunnels = 0;
    const proxy: Server = createServer();
    const tunnelled = new Set<Socket>();
    proxy.on('connect', (req, socket: Socket, head) => {
      tunnels++;
      tunnelled.add(socket);
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const address = proxy.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const path = await writeConfig(
        'proxy',
        { token: tokenOf('alice') },
        {
          server: files.server,
          'certificate-authority-data': b64(files.caPem),
          'proxy-url': `http://127.0.0.1:${port}`,
        },
      );
      assert.equal(await whoAmI(loadRestConfig({ kubeconfig: path })), serviceAccountUser('alice'));
      assert.ok(tunnels >= 1, 'the request went through the proxy');
    } finally {
      for (const socket of tunnelled) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('uses the service account in a pod: KUBERNETES_SERVICE_HOST/PORT, the mounted token, CA and namespace', async () => {
    const mount = join(dir, 'serviceaccount');
    await mkdir(mount, { recursive: true });
    await writeFile(join(mount, 'token'), tokenOf('alice'));
    await writeFile(join(mount, 'ca.crt'), files.caPem);
    await writeFile(join(mount, 'namespace'), NAMESPACE);
    const url = new URL(files.server);
    const podEnv = { KUBERNETES_SERVICE_HOST: url.hostname, KUBERNETES_SERVICE_PORT: url.port, HOME: dir };
    const config = loadRestConfig({ env: podEnv, serviceAccountDir: mount });
    assert.equal(config.source, 'in-cluster');
    assert.equal(config.namespace, NAMESPACE);
    assert.equal(await whoAmI(config), serviceAccountUser('alice'));

    // KUBECONFIG wins over the pod's account, as in controller-runtime's GetConfig.
    const kubeconfig = await writeConfig('beats-in-cluster', { token: tokenOf('bob') });
    const explicit = loadRestConfig({ env: { ...podEnv, KUBECONFIG: kubeconfig }, serviceAccountDir: mount });
    assert.equal(await whoAmI(explicit), serviceAccountUser('bob'));
    await rm(mount, { recursive: true });
  });

  it('runs a manager on a RestConfig from an exec plugin', async () => {
    const plugin = await writePlugin('exec-manager');
    await writeFile(
      plugin.credential,
      JSON.stringify({
        apiVersion: 'client.authentication.k8s.io/v1',
        kind: 'ExecCredential',
        status: { clientCertificateData: files.certPem, clientKeyData: files.keyPem },
      }),
    );
    const path = await writeConfig('exec-manager-config', {
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin.path, interactiveMode: 'Never' },
    });
    const mgr = await Manager.create({
      kubeConfig: loadRestConfig({ kubeconfig: path }),
      metricsBindAddress: '0',
      healthProbeBindAddress: '0',
      handleSignals: false,
    });
    const stop = new AbortController();
    const running = mgr.start(stop.signal);
    try {
      // The cache lists and watches with the plugin's certificate too.
      await mgr.cache.informerFor(NamespaceKind).waitForSync(stop.signal);
      const namespaces = await mgr.client.list(NamespaceKind);
      assert.ok(namespaces.items.some((n) => n.metadata?.name === NAMESPACE));
    } finally {
      stop.abort();
      await running;
    }
  });
});

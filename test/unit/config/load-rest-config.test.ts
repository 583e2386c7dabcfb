import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { KubeconfigError } from '../../../src/runtime/config/kubeconfig-file.ts';
import { loadRestConfig } from '../../../src/runtime/config/load-rest-config.ts';
import { restConfigOf } from '../../../src/runtime/config/rest-config-source.ts';

const NO_HOME = { HOME: '/nonexistent-home' };

function config(
  user: Record<string, unknown> = { token: 't' },
  cluster: Record<string, unknown> = {},
): string {
  return dump({
    clusters: [{ name: 'c', cluster: { server: 'https://api.example:6443', ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'main', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'main',
  });
}

/** Asserts that `load` throws a KubeconfigError whose message matches `message`. */
function assertRefused(load: () => unknown, message: RegExp): void {
  assert.throws(load, (err: unknown) => {
    assert.ok(err instanceof KubeconfigError, `a KubeconfigError, not ${String(err)}`);
    assert.match(err.message, message);
    return true;
  });
}

describe('loadRestConfig', () => {
  let dir: string;
  const file = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'load-rest-config-'));
  });

  it('takes the kubeconfig option over KUBECONFIG, KUBECONFIG over the pod, the pod over ~/.kube/config', async () => {
    const explicit = await file('explicit', config({ token: 'explicit' }));
    const listed = await file('listed', config({ token: 'listed' }));
    const home = join(dir, 'home');
    await mkdir(join(home, '.kube'), { recursive: true });
    await writeFile(join(home, '.kube', 'config'), config({ token: 'home' }));
    const mount = join(dir, 'sa');
    await mkdir(mount);
    await writeFile(join(mount, 'token'), 'pod');
    const pod = { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' };
    const source = (options: Parameters<typeof loadRestConfig>[0]): string =>
      loadRestConfig({ serviceAccountDir: mount, ...options }).source;

    assert.equal(
      source({ kubeconfig: explicit, env: { KUBECONFIG: listed, ...pod, HOME: home } }),
      `context main of ${explicit}`,
    );
    assert.equal(source({ env: { KUBECONFIG: listed, ...pod, HOME: home } }), `context main of ${listed}`);
    assert.equal(source({ env: { ...pod, HOME: home } }), 'in-cluster');
    assert.equal(source({ env: { HOME: home } }), `context main of ${join(home, '.kube', 'config')}`);
    assertRefused(
      () => loadRestConfig({ env: NO_HOME, serviceAccountDir: mount }),
      /no kubeconfig: pass --kubeconfig, set KUBECONFIG/,
    );
  });

  it('writes the in-cluster server with brackets around an IPv6 host', async () => {
    const mount = join(dir, 'sa6');
    await mkdir(mount);
    await writeFile(join(mount, 'token'), 'pod');
    const env = { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' };
    assert.equal(loadRestConfig({ env, serviceAccountDir: mount }).server, 'https://[fd00::1]:443');
  });

  it('refuses a --kubeconfig that does not exist and a KUBECONFIG whose files all do not', () => {
    assertRefused(() => loadRestConfig({ kubeconfig: join(dir, 'nope') }), /kubeconfig .*nope: no such file/);
    assertRefused(
      () => loadRestConfig({ env: { KUBECONFIG: `${join(dir, 'a')}:${join(dir, 'b')}` } }),
      /none of the files in KUBECONFIG exists .*, and this is not a pod/,
    );
  });

  it('names the field and file of a malformed kubeconfig', async () => {
    assertRefused(() => loadRestConfig({ kubeconfig: join(dir, 'x') }), /no such file/);
    const yaml = await file('bad-yaml', 'clusters: [\n');
    assertRefused(() => loadRestConfig({ kubeconfig: yaml }), /bad-yaml: not YAML/);
    const typed = await file('bad-type', dump({ clusters: [{ name: 'c', cluster: { server: 42 } }] }));
    assertRefused(
      () => loadRestConfig({ kubeconfig: typed }),
      /bad-type: clusters\[0\]\.cluster\.server must be a string/,
    );
    const noContext = await file('no-context', dump({ clusters: [] }));
    assertRefused(
      () => loadRestConfig({ kubeconfig: noContext }),
      /no current-context; set one with `kubectl config use-context`/,
    );
    const dangling = await file(
      'dangling',
      dump({ contexts: [{ name: 'x', context: { cluster: 'gone', user: '' } }], 'current-context': 'x' }),
    );
    assertRefused(
      () => loadRestConfig({ kubeconfig: dangling }),
      /names cluster "gone", which it does not define/,
    );
  });

  it('refuses what Kubernetes clients no longer do, saying what to use instead', async () => {
    const provider = await file('auth-provider', config({ 'auth-provider': { name: 'oidc', config: {} } }));
    assertRefused(
      () => loadRestConfig({ kubeconfig: provider }),
      /oidc auth-provider is not supported: use the kubelogin exec plugin/,
    );
    const gcp = await file('auth-provider-gcp', config({ 'auth-provider': { name: 'gcp' } }));
    assertRefused(() => loadRestConfig({ kubeconfig: gcp }), /"gcp" was removed .* gke-gcloud-auth-plugin/);
    const basic = await file('basic', config({ username: 'u', password: 'p' }));
    assertRefused(() => loadRestConfig({ kubeconfig: basic }), /no longer take basic authentication/);
    const socks = await file('socks', config({ token: 't' }, { 'proxy-url': 'socks5://127.0.0.1:1080' }));
    assertRefused(() => loadRestConfig({ kubeconfig: socks }), /only http:\/\/ and https:\/\/ proxies/);
    const alpha = await file(
      'exec-alpha',
      config({ exec: { apiVersion: 'client.authentication.k8s.io/v1alpha1', command: 'x' } }),
    );
    assertRefused(
      () => loadRestConfig({ kubeconfig: alpha }),
      /apiVersion "client.authentication.k8s.io\/v1alpha1" is not supported/,
    );
    const noMode = await file(
      'exec-no-mode',
      config({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'x' } }),
    );
    assertRefused(() => loadRestConfig({ kubeconfig: noMode }), /needs interactiveMode/);
  });

  it('refuses insecure-skip-tls-verify beside a CA, and half a client certificate', async () => {
    const ca = Buffer.from('-----BEGIN CERTIFICATE-----\nMA==\n-----END CERTIFICATE-----\n').toString(
      'base64',
    );
    const both = await file(
      'insecure-ca',
      config({}, { 'insecure-skip-tls-verify': true, 'certificate-authority-data': ca }),
    );
    assertRefused(
      () => loadRestConfig({ kubeconfig: both }),
      /insecure-skip-tls-verify and a certificate authority together/,
    );
    const half = await file('half-cert', config({ 'client-certificate-data': ca }));
    assertRefused(() => loadRestConfig({ kubeconfig: half }), /needs both client-certificate and client-key/);
  });

  it('falls back to the pod when no file of KUBECONFIG exists, as controller-runtime does', async () => {
    const mount = join(dir, 'sa-fallback');
    await mkdir(mount);
    await writeFile(join(mount, 'token'), 'pod');
    const env = {
      KUBECONFIG: join(dir, 'stale'),
      KUBERNETES_SERVICE_HOST: '10.0.0.1',
      KUBERNETES_SERVICE_PORT: '443',
    };
    assert.equal(loadRestConfig({ env, serviceAccountDir: mount, context: 'any' }).source, 'in-cluster');
  });

  it('checks only the entries the context uses, and reads a server without a scheme as https', async () => {
    const path = await file(
      'half-set',
      dump({
        clusters: [
          { name: 'unfinished', cluster: { 'insecure-skip-tls-verify': true } },
          { name: 'c', cluster: { server: 'api.example:6443' } },
        ],
        users: [
          { name: 'broken', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1' } } },
          { name: 'u', user: { token: 't' } },
        ],
        contexts: [
          { name: 'main', context: { cluster: 'c', user: 'u' } },
          { name: 'other', context: { cluster: 'unfinished', user: 'broken' } },
        ],
        'current-context': 'main',
      }),
    );
    assert.equal(loadRestConfig({ kubeconfig: path }).server, 'https://api.example:6443');
    assertRefused(() => loadRestConfig({ kubeconfig: path, context: 'other' }), /its cluster has no server/);
  });

  it('sends no identity to a plain http server, as clientcmd', async () => {
    const path = await file(
      'plain-http',
      config({ token: 't', as: 'someone' }, { server: 'http://127.0.0.1:8080' }),
    );
    const plain = loadRestConfig({ kubeconfig: path });
    assert.equal(plain.credentials, undefined);
    assert.equal(plain.impersonate, undefined);
  });

  it('reads a client-node KubeConfig through its exported kubeconfig, once per object', () => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://api.example:6443', skipTLSVerify: true }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u', namespace: 'team' }],
      currentContext: 'x',
    });
    const config = restConfigOf(kc);
    assert.equal(config.server, 'https://api.example:6443');
    assert.equal(config.namespace, 'team');
    assert.equal(config.insecureSkipTlsVerify, true);
    assert.equal(restConfigOf(kc), config);
  });
});

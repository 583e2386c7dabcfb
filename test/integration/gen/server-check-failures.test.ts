import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dump, load } from 'js-yaml';
import { startEnvironment, type Environment } from '../../../src/envtest/index.ts';
import { TsoperatorError } from '../../../src/errors.ts';
import { generateManifests } from '../../../src/gen/manifests.ts';
import { checkOnServer } from '../../../src/gen/server-check/check-on-server.ts';
import { runTsoperatorSource } from '../../support/cli.ts';

// When the server check cannot ask an API server (nothing listens, the credentials are refused, the
// user may not apply CRDs, the server is not an API server, no answer comes), it says so in one line
// with what to do, exits 1, and prints no stack: these are the user's environment, not a bug.

const fixture = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'server', 'refused');

interface Kubeconfig {
  clusters: { cluster: Record<string, unknown> }[];
  users: { user: Record<string, unknown> }[];
}

describe('manifests --check --server-dry-run=cluster, when it cannot ask', () => {
  let env: Environment;
  let dir = '';
  let admin: Kubeconfig;
  const servers: Server[] = [];
  before(async () => {
    env = await startEnvironment();
    dir = await mkdtemp(join(tmpdir(), 'tsoperator-server-check-failures-'));
    admin = load(await readFile(env.admin.kubeconfigPath, 'utf8')) as Kubeconfig;
  });
  after(async () => {
    for (const server of servers) server.close();
    await env?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** A kubeconfig like the admin's, its server and user changed. */
  async function kubeconfig(name: string, change: (config: Kubeconfig) => void): Promise<string> {
    const config = structuredClone(admin);
    change(config);
    const path = join(dir, `${name}.kubeconfig`);
    await writeFile(path, dump(config));
    return path;
  }

  const atServer = (server: string) => (config: Kubeconfig) => {
    const [cluster] = config.clusters;
    if (cluster) cluster.cluster = { server };
  };

  async function failure(path: string, requestTimeoutMs?: number): Promise<TsoperatorError> {
    const files = generateManifests({ root: fixture, onWarning: () => undefined });
    const checked = checkOnServer({
      files,
      schemaSites: new Map(),
      target: 'cluster',
      env: { KUBECONFIG: path },
      ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
    });
    const err: unknown = await checked.then(
      () => assert.fail('the check should fail'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof TsoperatorError, String(err));
    assert.equal(err.exitCode, 1);
    assert.doesNotMatch(err.message, /\n/);
    return err;
  }

  async function listening(server: Server): Promise<string> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('nothing listens: the CLI prints one line naming the server and what to check', async () => {
    const closed = createTcpServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const path = await kubeconfig('closed', atServer(`https://127.0.0.1:${port}`));
    const project = join(dir, 'project');
    await cp(join(fixture, 'src'), join(project, 'src'), { recursive: true });

    const result = await runTsoperatorSource(['manifests', '--check', '--server-dry-run=cluster'], project, {
      ...process.env,
      KUBECONFIG: path,
    });

    assert.equal(result.code, 1, result.stderr);
    assert.doesNotMatch(result.stderr, /Internal error|\n\s+at /);
    assert.match(
      result.stderr,
      new RegExp(
        `--server-dry-run=cluster: cannot reach the API server at https://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\): check that the cluster runs`,
      ),
    );
  });

  it('the credentials are refused (401)', async () => {
    const path = await kubeconfig('bad-token', (config) => {
      const [user] = config.users;
      if (user) user.user = { token: 'not-a-token' };
    });
    const err = await failure(path);
    assert.match(
      err.message,
      /refuses the current kubeconfig's credentials \(401 Unauthorized\): log in again/,
    );
  });

  it('the user may not apply CRDs (403)', async () => {
    const nobody = await env.addUser('nobody');
    const err = await failure(nobody.kubeconfigPath);
    assert.match(
      err.message,
      /may not apply CustomResourceDefinitions .*\(403 Forbidden: .*\): a dry run needs/,
    );
  });

  it('the server is not an API server (a 404 page)', async () => {
    const server = await listening(
      createHttpServer((_, response) =>
        response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>no</h1>'),
      ),
    );
    const err = await failure(await kubeconfig('not-api', atServer(server)));
    assert.match(err.message, new RegExp(`${server} answered 404, not as a Kubernetes API server answers`));
  });

  it('no answer comes in time', async () => {
    const silent = await listening(createHttpServer(() => undefined));
    const err = await failure(await kubeconfig('silent', atServer(silent)), 500);
    assert.match(err.message, new RegExp(`the API server at ${silent} did not answer within 0\\.5 s`));
  });
});

// `./dev demo`: the whole story a newcomer should see. It scaffolds a WebApp operator in a temp
// folder, generates its manifests, installs it with tsoperator packed from this checkout, starts a
// local control plane with two nodes (etcd, kube-apiserver, kube-controller-manager, kube-scheduler
// and kwok), runs the operator against it with `npm start`, creates a WebApp from the generated
// sample, shows what the operator made and the WebApp turning Available, then scales it up.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa, type ResultPromise } from 'execa';
import { startEnvironment } from '../src/envtest/index.ts';
import { isAlive } from '../src/envtest/process-alive.ts';

const repo = join(import.meta.dirname, '..');
const root = await mkdtemp(join(tmpdir(), 'tsoperator-demo-'));
const project = join(root, 'webapp-operator');

function step(title: string): void {
  process.stdout.write(`\n\x1b[1m==> ${title}\x1b[0m\n`);
}

/** Runs a command with its output shown, as a user would see it in a terminal. */
async function show(
  file: string,
  args: readonly string[],
  cwd = project,
  env: NodeJS.ProcessEnv = {},
): Promise<void> {
  process.stdout.write(`$ ${[file === process.execPath ? 'node' : file, ...args].join(' ')}\n`);
  await execa(file, args, { cwd, stdio: 'inherit', env });
}

const tsoperator = (args: readonly string[]): Promise<void> =>
  show(process.execPath, [join(repo, 'bin', 'tsoperator.js'), ...args]);

try {
  step('tsoperator init');
  await execa('mkdir', ['-p', project]);
  await tsoperator(['init', '--domain', 'example.org', '--project-name', 'webapp-operator']);

  step('tsoperator create api: a WebApp kind whose controller runs nginx behind a Service');
  await tsoperator([
    'create',
    'api',
    '--group',
    'demo',
    '--version',
    'v1',
    '--kind',
    'WebApp',
    '--image',
    'nginx:1.27',
    '--port',
    '80',
  ]);

  step('npm install (tsoperator packed from this checkout)');
  await execa('npm', ['pack', '--silent', '--pack-destination', root], { cwd: repo });
  const tarball = (await readdir(root)).find((n) => n.startsWith('tsoperator-') && n.endsWith('.tgz')) ?? '';
  await show('npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    '--save-dev',
    join(root, tarball),
  ]);

  step('tsoperator manifests: CRD and RBAC from the types and markers');
  await show('npx', ['tsoperator', 'manifests']);
  await show('ls', ['config/crd/bases', 'config/rbac']);

  step('a local control plane with two nodes, run by kube-scheduler and kwok');
  await using env = await startEnvironment({
    nodes: 2,
    crdPaths: [join(project, 'config', 'crd', 'bases')],
  });
  const kubectl = (args: readonly string[]): Promise<void> =>
    show(join(env.binDir, 'kubectl'), ['--kubeconfig', env.kubeconfigPath, ...args]);
  process.stdout.write(`kube-apiserver at ${env.server}\n`);
  await kubectl(['get', 'nodes']);

  step('npm start: the operator, against that control plane');
  const operator: ResultPromise = execa(
    'npm',
    ['start', '--', '--metrics-bind-address=0', '--health-probe-bind-address=0'],
    {
      cwd: project,
      env: { KUBECONFIG: env.kubeconfigPath },
      stdout: 'ignore',
      stderr: 'ignore',
      reject: false,
      // Its own process group: npm does not pass SIGTERM on to the manager; a group signal does.
      detached: true,
    },
  );

  step('kubectl apply the generated sample WebApp');
  const samples = (await readdir(join(project, 'config', 'samples'))).filter(
    (n) => n.endsWith('.yaml') && n !== 'kustomization.yaml',
  );
  for (const sample of samples) await kubectl(['apply', '-f', join('config', 'samples', sample)]);

  step('what the operator made: kube-scheduler places the Pod on a node, kwok runs it');
  await kubectl(['wait', '--for=condition=Available', 'webapps', '--all', '--timeout=120s']);
  await kubectl(['get', 'webapps,deployments,replicasets,pods,services', '-o', 'wide']);
  await kubectl(['get', 'webapps', '-o', 'yaml']);

  step('scale up: kubectl patch the WebApp to 3 replicas');
  await kubectl(['patch', 'webapp', 'webapp-sample', '--type=merge', '-p', '{"spec":{"replicas":3}}']);
  await kubectl([
    'wait',
    '--for=jsonpath={.status.readyReplicas}=3',
    'webapp/webapp-sample',
    '--timeout=120s',
  ]);
  await kubectl(['get', 'webapps,deployments,pods', '-o', 'wide']);

  step('stop: SIGTERM drains the operator');
  const group = -(operator.pid ?? 0);
  process.kill(group, 'SIGTERM');
  const result = await operator;
  // npm exits on the signal at once; the manager drains on its own, so wait for the whole group.
  while (isAlive(group)) await sleep(100);
  process.stdout.write(
    `operator stopped (npm: ${result.signal ?? `exit code ${String(result.exitCode)}`})\n`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}

// The main job a newcomer runs with `./dev demo`: show the CLI, then find (or build) the control
// plane binaries and start a real control plane from them. It grows with the product into the whole
// story: init, create api, manifests, run, create a WebApp, show what the operator made.
import { execFileSync } from 'node:child_process';
import { startEnvironment } from '../src/envtest/index.ts';

const cli = (args: string[]): string =>
  execFileSync(process.execPath, ['bin/tsoperator.js', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });

console.log(cli(['--help']));
const assets = cli(['envtest', 'use']).trim();
console.log(`control-plane binaries: ${assets}`);
await using env = await startEnvironment({ binaryAssetsDir: assets });
console.log(`kube-apiserver ready at ${env.server}; kubeconfig ${env.kubeconfigPath}`);
console.log(
  execFileSync(`${assets}/kubectl`, ['--kubeconfig', env.kubeconfigPath, 'get', 'namespaces'], {
    encoding: 'utf8',
  }),
);

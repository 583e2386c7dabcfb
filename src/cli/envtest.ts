import type { Command } from 'commander';
import { DEFAULT_KUBERNETES_VERSION } from '../envtest/versions.ts';
import { resolveAssets } from '../envtest/assets.ts';
import {
  parseControllerList,
  parseNodeCount,
  runEnvtestStart,
  type EnvtestStartOptions,
} from './envtest-start.ts';

interface UseOptions {
  download: boolean;
  build: boolean;
  indexUrl?: string;
  printEnv?: boolean;
  nodes: boolean;
}

/** `tsoperator envtest use [version]`: prints the folder holding the control-plane binaries. */
export function registerEnvtestCommand(program: Command): void {
  const envtest = program
    .command('envtest')
    .description(
      'find, download or build the control-plane binaries for tests (kube-apiserver, etcd, kubectl, kube-controller-manager, kube-scheduler, kwok), or run a control plane',
    );
  envtest
    .command('use', { isDefault: true })
    .description('print the folder holding the binaries for a Kubernetes version (KUBEBUILDER_ASSETS layout)')
    .argument('[k8s-version]', 'Kubernetes version, e.g. 1.37.2', DEFAULT_KUBERNETES_VERSION)
    .option('--no-download', 'do not download the envtest release archive')
    .option('--no-build', 'do not build the binaries from the Go module proxy')
    .option('--index-url <url>', 'envtest release index to download from')
    .option('--no-nodes', 'leave out kube-scheduler and kwok, which only a control plane with nodes runs')
    .option('-p, --print-env', 'print `export KUBEBUILDER_ASSETS=<folder>` instead of the bare folder')
    .action(async (version: string, options: UseOptions) => {
      const assets = await resolveAssets({
        version,
        allowDownload: options.download,
        allowBuild: options.build,
        nodes: options.nodes,
        ...(options.indexUrl === undefined ? {} : { indexUrl: options.indexUrl }),
        onProgress: (line) => process.stderr.write(`${line}\n`),
      });
      process.stdout.write(
        options.printEnv ? `export KUBEBUILDER_ASSETS='${assets.dir}'\n` : `${assets.dir}\n`,
      );
    });
  envtest
    .command('start')
    .description('run a control plane until Ctrl-C, printing `export KUBECONFIG=<file>` for it')
    .argument('[k8s-version]', 'Kubernetes version, e.g. 1.37.2', DEFAULT_KUBERNETES_VERSION)
    .option(
      '--nodes <count>',
      'fake nodes run by kwok, with kube-scheduler placing Pods on them',
      parseNodeCount,
      0,
    )
    .option('--crd <path...>', 'CRD files or folders to install')
    .option(
      '--controllers <list>',
      "kube-controller-manager's controllers, in its own syntax: `*` (default: what a cluster runs), `name` to turn one on, `-name` to turn one off, e.g. `*,-horizontal-pod-autoscaler-controller`",
      parseControllerList,
    )
    .action((version: string, options: EnvtestStartOptions) => runEnvtestStart(version, options));
}

import type { Command } from 'commander';
import type { ImageReference } from '../deploy/image-reference.ts';

interface BuildFlags {
  img?: string;
  output: string;
  kubectl: string;
}

interface BuildOptions {
  dir: string;
  image: ImageReference;
  output: string;
  kubectl: string;
}

/**
 * `tsoperator build-installer` and `tsoperator build-chart`: config/default with the manager's image
 * set, as one YAML file or as a Helm chart.
 */
export function registerBuildDeployCommands(program: Command): void {
  withBuildFlags(program.command('build-installer'), 'deploy/install.yaml')
    .description('write config/default, with the manager image set, to deploy/install.yaml')
    .action(async (flags: BuildFlags) => {
      const { buildInstaller } = await import('../deploy/build-installer.ts');
      const path = await buildInstaller(await buildOptions(flags));
      process.stdout.write(`wrote ${path}\n`);
    });
  withBuildFlags(program.command('build-chart'), 'deploy/chart')
    .description('write a Helm chart of config/default, with the manager image as a value, to deploy/chart')
    .action(async (flags: BuildFlags) => {
      const { buildChart } = await import('../deploy/build-chart.ts');
      const paths = await buildChart(await buildOptions(flags));
      process.stdout.write(`wrote ${paths.length} files under ${flags.output}\n`);
    });
}

function withBuildFlags(command: Command, output: string): Command {
  return command
    .option('--img <image>', "the manager's image (default: $IMG, else controller:latest)")
    .option('--output <path>', 'where to write, relative to the project root', output)
    .option('--kubectl <path>', 'the kubectl whose built-in kustomize builds config/', 'kubectl');
}

async function buildOptions(flags: BuildFlags): Promise<BuildOptions> {
  const { parseImageReference } = await import('../deploy/image-reference.ts');
  // As Kubebuilder's Makefile takes it: `IMG=ghcr.io/acme/op:v1 make build-installer`.
  const image = flags.img ?? process.env['IMG'] ?? 'controller:latest';
  return {
    dir: process.cwd(),
    image: parseImageReference(image),
    output: flags.output,
    kubectl: flags.kubectl,
  };
}

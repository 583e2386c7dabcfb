import { Command } from 'commander';
import { tsoperatorVersion } from '../version.ts';
import { registerAlphaUpdateCommand } from './alpha-update.ts';
import { registerBuildDeployCommands } from './build-deploy.ts';
import { registerEditCommand } from './edit.ts';
import { registerEnvtestCommand } from './envtest.ts';
import { registerGenerateCommand } from './generate.ts';
import { registerInitCommand } from './init.ts';
import { registerLintCommand } from './lint.ts';
import { registerCreateCommand } from './create-api.ts';
import { registerCreateWebhookCommand } from './create-webhook.ts';
import { registerDeleteCommand } from './delete-api.ts';
import { registerManifestsCommand } from './manifests.ts';

/**
 * The tsoperator command line. Each command lives in its own file and only parses, calls and
 * prints; the work is done by the modules it calls.
 */
export function createProgram(): Command {
  const program = new Command('tsoperator')
    .description(
      'Kubebuilder for TypeScript: scaffold, generate manifests for, and test Kubernetes operators.',
    )
    .version(tsoperatorVersion(), '-v, --version', 'print the tsoperator version')
    .showHelpAfterError('(run with --help for usage)')
    // `create api --version v1` is the API version: program options only count before a command.
    .enablePositionalOptions()
    .exitOverride();
  registerEnvtestCommand(program);
  registerInitCommand(program);
  registerCreateCommand(program);
  registerCreateWebhookCommand(program);
  registerDeleteCommand(program);
  registerManifestsCommand(program);
  registerLintCommand(program);
  registerBuildDeployCommands(program);
  registerGenerateCommand(program);
  registerEditCommand(program);
  registerAlphaUpdateCommand(program);
  return program;
}

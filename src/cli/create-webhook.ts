import type { Command } from 'commander';
import type { WebhookPlan } from '../scaffold/webhook/plan-webhook.ts';

interface CreateWebhookFlags {
  group?: string;
  version?: string;
  kind: string;
  defaulting: boolean;
  programmaticValidation: boolean;
  conversion: boolean;
  spoke?: string;
  force: boolean;
  dryRun: boolean;
}

/** `tsoperator create webhook`: a kind's defaulter, validator and conversions, served by the manager. */
export function registerCreateWebhookCommand(program: Command): void {
  // `create api` registers under the same parent, in whichever order the two are registered.
  const create =
    program.commands.find((c) => c.name() === 'create') ??
    program.command('create').description('add an API or a webhook to the project');
  create
    .command('webhook')
    .description(
      "scaffold a kind's webhooks: a defaulter, a validator and conversions, registered in src/main.ts, with a test",
    )
    .requiredOption('--kind <kind>', 'the kind, which must have an API (tsoperator create api)')
    .option('--group <group>', "the API group; default: the group of the kind's API")
    .option('--version <version>', "the API version; default: the version of the kind's only API")
    .option('--defaulting', 'a defaulting (mutating) webhook', false)
    .option('--programmatic-validation', 'a validating webhook', false)
    .option('--conversion', 'a conversion webhook, this version being the hub (needs --spoke)', false)
    .option('--spoke <versions>', 'the versions converted to and from the hub, comma-separated: v2,v3')
    .option('--force', 'regenerate existing webhooks; files you changed are kept', false)
    .option('--dry-run', 'print what would be written, and write nothing', false)
    .action(async (flags: CreateWebhookFlags) => {
      // Loaded when the command runs: the manifests generator brings the TypeScript compiler.
      const { scaffoldWebhook } = await import('../scaffold/webhook/scaffold-webhook.ts');
      const { formatChanges } = await import('../scaffold/format-changes.ts');
      const options = {
        dir: process.cwd(),
        kind: flags.kind,
        defaulting: flags.defaulting,
        validation: flags.programmaticValidation,
        conversion: flags.conversion,
        spokes: (flags.spoke ?? '')
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v !== ''),
        force: flags.force,
        ...(flags.group === undefined ? {} : { group: flags.group }),
        ...(flags.version === undefined ? {} : { version: flags.version }),
      };
      const printPlan = (plan: WebhookPlan): void => void process.stdout.write(formatChanges(plan.changes));
      const { manifests } = await scaffoldWebhook(options, {
        dryRun: flags.dryRun,
        onPlanApplied: printPlan,
      });
      if (flags.dryRun) {
        process.stdout.write('dry run: nothing was written (a real run then regenerates the manifests)\n');
        return;
      }
      process.stdout.write(`manifests regenerated:\n${formatChanges(manifests)}`);
    });
}

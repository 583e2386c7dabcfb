import type { Command } from 'commander';

interface DeleteApiFlags {
  group?: string;
  version?: string;
  kind: string;
  force: boolean;
  dryRun: boolean;
}

/** `tsoperator delete api`: the inverse of `create api` (and of the kind version's webhooks). */
export function registerDeleteCommand(program: Command): void {
  const remove =
    program.commands.find((c) => c.name() === 'delete') ??
    program.command('delete').description('remove an API from the project');
  remove
    .command('api')
    .description(
      'delete a kind version: its types, controller, tests, sample, roles, webhooks and main.ts lines, then its manifests',
    )
    .requiredOption('--kind <kind>', 'the kind, as given to create api')
    .option('--group <group>', "the API group; default: the project's group, as for create api")
    .option('--version <version>', 'the API version; default: v1, as for create api')
    .option('--force', 'delete files you changed too; a copy of each is kept in .tsoperator/deleted/', false)
    .option('--dry-run', 'print what would be deleted and changed, and write nothing', false)
    .action(async (flags: DeleteApiFlags) => {
      // Loaded when the command runs: the manifests generator brings the TypeScript compiler.
      const { deleteApi } = await import('../scaffold/delete/delete-api.ts');
      const { formatChanges } = await import('../scaffold/format-changes.ts');
      const options = {
        dir: process.cwd(),
        kind: flags.kind,
        force: flags.force,
        ...(flags.group === undefined ? {} : { group: flags.group }),
        ...(flags.version === undefined ? {} : { version: flags.version }),
      };
      const plan = await deleteApi(options, { dryRun: flags.dryRun });
      for (const taken of plan.defaultsTaken) process.stdout.write(`defaulted: ${taken}\n`);
      process.stdout.write(formatChanges(plan.changes));
      if (plan.keptAsideIn !== undefined) {
        const kept = flags.dryRun ? 'would be kept' : 'are kept';
        process.stdout.write(`the files you changed ${kept} in ${plan.keptAsideIn}/\n`);
      }
      if (flags.dryRun) process.stdout.write('dry run: nothing was written\n');
    });
}

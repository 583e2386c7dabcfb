import type { Command } from 'commander';

interface EditFlags {
  plugins: string;
  dryRun: boolean;
}

/** `tsoperator edit --plugins grafana`: adds an optional plugin's files to a project, as `kubebuilder edit`. */
export function registerEditCommand(program: Command): void {
  program
    .command('edit')
    .description(
      "add optional plugins to the project (grafana: dashboards of the runtime's metrics, in grafana/)",
    )
    .requiredOption(
      '--plugins <plugins>',
      'comma-separated plugins: grafana (Kubebuilder: grafana.kubebuilder.io/v1-alpha)',
    )
    .option('--dry-run', 'print what would be written, and write nothing', false)
    .action(async (flags: EditFlags) => {
      const { parsePlugins } = await import('../grafana/grafana-plugin.ts');
      const { planEdit } = await import('../scaffold/edit/plan-edit.ts');
      const { applyWrites } = await import('../scaffold/apply.ts');
      const { fileWrites } = await import('../scaffold/change.ts');
      const { formatChanges } = await import('../scaffold/format-changes.ts');
      const dir = process.cwd();
      const changes = await planEdit({ dir, plugins: parsePlugins(flags.plugins) });
      if (!flags.dryRun) await applyWrites(dir, fileWrites(changes));
      process.stdout.write(formatChanges(changes));
      if (flags.dryRun) process.stdout.write('dry run: nothing was written\n');
    });
}

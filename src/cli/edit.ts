import type { Command } from 'commander';
import { applyPlan } from './apply-plan.ts';

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
      const dir = process.cwd();
      const changes = await planEdit({ dir, plugins: parsePlugins(flags.plugins) });
      await applyPlan(dir, changes, flags.dryRun);
    });
}

import type { Command } from 'commander';
import { UsageError } from '../errors.ts';
import { applyPlan } from './apply-plan.ts';
import { parseByteCount } from './byte-count.ts';

interface EditFlags {
  plugins?: string;
  maxDescLen?: number;
  dryRun: boolean;
}

/**
 * `tsoperator edit`: changes a project's settings after init, as `kubebuilder edit`: adds optional
 * plugins (`--plugins grafana`), and sets how long CRD descriptions may be (`--max-desc-len`, what
 * Kubebuilder's CronJob tutorial puts in its Makefile as controller-gen's `crd:maxDescLen`), then
 * regenerates the manifests that setting shapes.
 */
export function registerEditCommand(program: Command): void {
  program
    .command('edit')
    .description(
      "change the project's settings: add optional plugins (grafana: dashboards of the runtime's metrics, in grafana/), limit CRD descriptions",
    )
    .option(
      '--plugins <plugins>',
      'comma-separated plugins: grafana (Kubebuilder: grafana.kubebuilder.io/v1-alpha)',
    )
    .option(
      '--max-desc-len <bytes>',
      "keep CRD descriptions to this many bytes from now on, as controller-gen's crd:maxDescLen (0 drops them, -1 removes the limit): PROJECT's crd.maxDescLen",
      parseByteCount,
    )
    .option('--dry-run', 'print what would be written, and write nothing', false)
    .action(async (flags: EditFlags) => {
      if (flags.plugins === undefined && flags.maxDescLen === undefined) {
        throw new UsageError('edit needs --plugins or --max-desc-len: say what to change');
      }
      const { parsePlugins } = await import('../grafana/grafana-plugin.ts');
      const { planEdit } = await import('../scaffold/edit/plan-edit.ts');
      const { regenerateManifests } = await import('../scaffold/regenerate-manifests.ts');
      const { formatChanges } = await import('../scaffold/format-changes.ts');
      const dir = process.cwd();
      const plugins = flags.plugins === undefined ? [] : parsePlugins(flags.plugins);
      const changes = await planEdit({ dir, plugins, maxDescLen: flags.maxDescLen });
      await applyPlan(dir, changes, flags.dryRun);
      if (flags.maxDescLen === undefined) return;
      // A dry run writes no PROJECT, so the new limit is given to the generator directly.
      const manifests = await regenerateManifests(dir, {
        maxDescLen: flags.maxDescLen,
        dryRun: flags.dryRun,
      });
      const heading = flags.dryRun ? 'manifests that would be regenerated' : 'manifests regenerated';
      process.stdout.write(`${heading}:\n${formatChanges(manifests)}`);
    });
}

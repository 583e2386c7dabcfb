import type { Command } from 'commander';
import { resolve } from 'node:path';

interface ManifestsFlags {
  check: boolean;
  dryRun: boolean;
  output?: string;
}

/** `tsoperator manifests`: CRDs (and RBAC, webhook configuration) from the project's types and markers. */
export function registerManifestsCommand(program: Command): void {
  program
    .command('manifests')
    .description('generate CRDs, RBAC and webhook configuration from the types and markers under src/')
    .option('--check', 'write nothing; exit 1 with a diff when the files on disk are stale (for CI)', false)
    .option('--dry-run', 'print what would change, and write nothing', false)
    .option('--output <dir>', 'write under this folder instead of the project root')
    .action(async (flags: ManifestsFlags) => {
      // Loaded on use: the generators bring the TypeScript compiler, which other commands never need.
      const { compareManifests, staleManifestsError, writeManifests } =
        await import('../gen/manifest-sync.ts');
      const { generateManifests } = await import('../gen/manifests.ts');
      const root = process.cwd();
      const target = resolve(root, flags.output ?? '.');
      const files = generateManifests({ root });
      if (flags.check || flags.dryRun) {
        const changes = compareManifests(target, files);
        for (const change of changes) process.stdout.write(change.diff);
        const stale = staleManifestsError(changes);
        if (flags.check && stale) throw stale;
        if (flags.dryRun) for (const c of changes) process.stdout.write(`${c.status.padEnd(9)} ${c.path}\n`);
        return;
      }
      for (const change of writeManifests(target, files)) {
        if (change.status !== 'unchanged')
          process.stdout.write(`${change.status === 'create' ? 'created' : 'updated'} ${change.path}\n`);
      }
    });
}

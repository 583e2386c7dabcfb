import { InvalidArgumentError, type Command } from 'commander';
import { resolve } from 'node:path';
import { baselineRequest, reportFormat, type CompatibilityFlags } from './compatibility-flags.ts';

interface ManifestsFlags extends CompatibilityFlags {
  dryRun: boolean;
  output?: string;
  maxDescLen?: number;
}

/** `tsoperator manifests`: CRDs (and RBAC, webhook configuration) from the project's types and markers. */
export function registerManifestsCommand(program: Command): void {
  program
    .command('manifests')
    .description('generate CRDs, RBAC and webhook configuration from the types and markers under src/')
    .option(
      '--check',
      'write nothing; exit 1 with a diff when the files on disk are stale, or when a CRD breaks compatibility with its baseline (for CI)',
      false,
    )
    .option('--dry-run', 'print what would change, and write nothing', false)
    .option('--output <dir>', 'write under this folder instead of the project root')
    .option(
      '--max-desc-len <bytes>',
      "the longest description a CRD schema keeps, as controller-gen's crd:maxDescLen (0 drops them, -1 keeps them whole); overrides the PROJECT file's crd.maxDescLen for this run",
      parseByteCount,
    )
    .option(
      '--against <ref>',
      'with --check: the baseline is the CRDs committed at this git ref (default: the merge base with the default branch, else the last tag)',
    )
    .option('--against-file <path>', 'with --check: the baseline is the CRDs of this YAML file or folder')
    .option(
      '--against-cluster',
      'with --check: the baseline is the CRDs installed in the current kubeconfig cluster',
      false,
    )
    .option(
      '--compat-config <file>',
      'with --check: crdify-format config of the compatibility checks (default: crdify.yaml, if present)',
    )
    .option('--format <format>', 'with --check: report as text, or as json on stdout', 'text')
    .action(async (flags: ManifestsFlags) => {
      const baseline = baselineRequest(flags);
      const format = reportFormat(flags);
      // Loaded on use: the generators bring the TypeScript compiler, which other commands never need.
      const { compareManifests, writeManifests } = await import('../gen/manifest-sync.ts');
      const { generateManifests } = await import('../gen/manifests.ts');
      const root = process.cwd();
      const target = resolve(root, flags.output ?? '.');
      const files = generateManifests({ root, maxDescLen: flags.maxDescLen });
      if (flags.check) {
        const { runManifestsCheck } = await import('./manifests-check.ts');
        const changes = compareManifests(target, files);
        await runManifestsCheck({ root, files, changes, baseline, format, ...configPath(flags) });
        return;
      }
      if (flags.dryRun) {
        const changes = compareManifests(target, files);
        for (const change of changes) process.stdout.write(change.diff);
        for (const c of changes) process.stdout.write(`${c.status.padEnd(9)} ${c.path}\n`);
        return;
      }
      for (const change of writeManifests(target, files)) {
        if (change.status !== 'unchanged')
          process.stdout.write(`${change.status === 'create' ? 'created' : 'updated'} ${change.path}\n`);
      }
    });
}

function configPath(flags: ManifestsFlags): { configPath?: string } {
  return flags.compatConfig === undefined ? {} : { configPath: flags.compatConfig };
}

function parseByteCount(value: string): number {
  if (!/^-?\d+$/.test(value))
    throw new InvalidArgumentError('expected a whole number of bytes, e.g. 0 or 200');
  return Number(value);
}

import type { Command } from 'commander';
import type { SchemaSites } from '../gen/crd/schema-site.ts';
import type { ServerTarget } from '../gen/server-check/check-on-server.ts';
import { resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import { parseByteCount } from './byte-count.ts';
import { baselineRequest, reportFormat, type CompatibilityFlags } from './compatibility-flags.ts';

interface ManifestsFlags extends CompatibilityFlags {
  dryRun: boolean;
  output?: string;
  maxDescLen?: number;
  serverDryRun?: string | true;
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
    .option(
      '--server-dry-run [target]',
      'with --check: have an API server dry-run every CRD and webhook configuration, and fail at the marker of what it refuses; target: envtest (a control plane started from the envtest binaries, the default) or cluster (the current kubeconfig)',
    )
    .action(async (flags: ManifestsFlags) => {
      const baseline = baselineRequest(flags);
      const serverDryRun = serverTarget(flags);
      const format = reportFormat(flags);
      // Loaded on use: the generators bring the TypeScript compiler, which other commands never need.
      const { compareManifests, writeManifests } = await import('../gen/manifest-sync.ts');
      const { generateManifests } = await import('../gen/manifests.ts');
      const root = process.cwd();
      const target = resolve(root, flags.output ?? '.');
      const schemaSites = new Map<string, SchemaSites>();
      const files = generateManifests({ root, maxDescLen: flags.maxDescLen, schemaSites });
      if (flags.check) {
        const { runManifestsCheck } = await import('./manifests-check.ts');
        const changes = compareManifests(target, files);
        const server = serverDryRun === undefined ? {} : { server: { target: serverDryRun, schemaSites } };
        await runManifestsCheck({ root, files, changes, baseline, format, ...server, ...configPath(flags) });
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

function serverTarget(flags: ManifestsFlags): ServerTarget | undefined {
  const value = flags.serverDryRun;
  if (value === undefined) return undefined;
  if (!flags.check) throw new UsageError('--server-dry-run checks the manifests: use it with --check');
  if (value === true || value === 'envtest') return 'envtest';
  if (value === 'cluster') return 'cluster';
  throw new UsageError(`--server-dry-run takes envtest or cluster, not ${JSON.stringify(value)}`);
}

function configPath(flags: ManifestsFlags): { configPath?: string } {
  return flags.compatConfig === undefined ? {} : { configPath: flags.compatConfig };
}

import type { Command } from 'commander';
import { applyPlan } from './apply-plan.ts';

interface BundleFlags {
  version: string;
  channels: string;
  defaultChannel?: string;
  package?: string;
  img?: string;
  kubectl: string;
  dryRun: boolean;
}

/** `tsoperator generate bundle`: an OLM bundle of the operator, for OperatorHub and catalogs. */
export function registerGenerateCommand(program: Command): void {
  const generate = program.command('generate').description('generate files for distributing the operator');
  generate
    .command('bundle')
    .description(
      'write an OLM bundle (bundle/manifests, bundle/metadata, bundle.Dockerfile) from config/ and the base CSV in config/manifests/bases',
    )
    .requiredOption('--version <version>', 'the semantic version of the bundle, e.g. 0.1.0')
    .option('--channels <channels>', 'comma-separated channels the bundle is published in', 'alpha')
    .option('--default-channel <channel>', 'the channel a subscription follows by default')
    .option('--package <name>', "the OLM package name (default: the project's name)")
    .option('--img <image>', "the manager's image (default: $IMG, else controller:latest)")
    .option('--kubectl <path>', 'the kubectl whose built-in kustomize builds config/', 'kubectl')
    .option('--dry-run', 'print what would be written, and write nothing', false)
    .action(async (flags: BundleFlags) => {
      const { parseImageReference } = await import('../deploy/image-reference.ts');
      const { planBundle } = await import('../bundle/plan-bundle.ts');
      const dir = process.cwd();
      const plan = await planBundle({
        dir,
        version: flags.version,
        channels: flags.channels,
        image: parseImageReference(flags.img ?? process.env['IMG'] ?? 'controller:latest'),
        kubectl: flags.kubectl,
        ...(flags.defaultChannel === undefined ? {} : { defaultChannel: flags.defaultChannel }),
        ...(flags.package === undefined ? {} : { packageName: flags.package }),
      });
      if (plan.leftOut.length > 0)
        process.stdout.write(`not in the bundle (OLM does not install these): ${plan.leftOut.join(', ')}\n`);
      await applyPlan(dir, plan.changes, flags.dryRun);
    });
}

import { Option, type Command } from 'commander';
import { applyPlan } from './apply-plan.ts';
import { parseBooleanFlag } from './boolean-flag.ts';

interface InitFlags {
  domain: string;
  projectName?: string;
  owner?: string;
  license: 'apache2' | 'none';
  namespaced: boolean;
  multigroup: boolean;
  sharded: boolean;
  force: boolean;
  dryRun: boolean;
  plugins?: string;
  tsoperatorDependency?: string;
}

/** `tsoperator init`: scaffolds a new operator project in the current folder. */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('scaffold a new operator project in the current folder')
    .option('--domain <domain>', 'domain of the API groups, e.g. example.org', 'my.domain')
    .option('--project-name <name>', "name of the project (a DNS-1123 label); default: the folder's name")
    .option('--owner <owner>', 'copyright owner, for the license and package.json')
    .addOption(
      new Option('--license <license>', 'license of the project')
        .choices(['apache2', 'none'])
        .default('apache2'),
    )
    .option(
      '--namespaced [bool]',
      'the operator watches only its own namespace (Roles instead of ClusterRoles)',
      parseBooleanFlag,
      false,
    )
    .option(
      '--multigroup [bool]',
      'the project will have APIs in more than one group',
      parseBooleanFlag,
      false,
    )
    .option(
      '--sharded [bool]',
      'every replica reconciles a shard of the objects (3 replicas), instead of one leader reconciling all',
      parseBooleanFlag,
      false,
    )
    .option(
      '--plugins <plugins>',
      'optional plugins to add, comma-separated: grafana (as `edit --plugins` adds them)',
    )
    .option(
      '--tsoperator-dependency <spec>',
      'the npm spec package.json takes tsoperator from; default: ^<version>, or this checkout (file:) when run from one',
    )
    .option('--force', 'regenerate the files of an initialised project; files you changed are kept', false)
    .option('--dry-run', 'print what would be written, and write nothing', false)
    .action(async (flags: InitFlags) => {
      // Loaded when the command runs, so that other commands do not pay for the templates' modules.
      const { projectNameFromFolder } = await import('../project/project-name.ts');
      const { planInit } = await import('../scaffold/init/plan-init.ts');
      const { parsePlugins } = await import('../grafana/grafana-plugin.ts');
      const dir = process.cwd();
      const changes = await planInit({
        dir,
        domain: flags.domain,
        projectName: flags.projectName ?? projectNameFromFolder(dir),
        license: flags.license,
        namespaced: flags.namespaced,
        multigroup: flags.multigroup,
        sharded: flags.sharded,
        force: flags.force,
        ...(flags.owner === undefined ? {} : { owner: flags.owner }),
        ...(flags.plugins === undefined ? {} : { plugins: parsePlugins(flags.plugins) }),
        ...(flags.tsoperatorDependency === undefined
          ? {}
          : { tsoperatorDependency: flags.tsoperatorDependency }),
      });
      await applyPlan(dir, changes, flags.dryRun);
      const { tsoperatorDependency } = await import('../scaffold/tsoperator-dependency.ts');
      const { tsoperatorVersion } = await import('../version.ts');
      const { checkout } = tsoperatorDependency(tsoperatorVersion(), flags.tsoperatorDependency);
      // On stderr: it is about this run of tsoperator, not part of the plan printed on stdout.
      if (checkout !== undefined) {
        process.stderr.write(
          `note: tsoperator runs from the checkout ${checkout}, not from the npm registry: package.json takes it from there (file:), and npm install links it; keep the checkout built (npm run build), or pass --tsoperator-dependency to take another\n`,
        );
      }
      if (!flags.dryRun)
        process.stdout.write(
          'Next: npm install, then `npx tsoperator create api --group <group> --kind <Kind>`\n',
        );
    });
}

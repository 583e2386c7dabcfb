import { InvalidArgumentError, type Command } from 'commander';
import type { ApiPlan } from '../scaffold/api/plan-api.ts';
import { askYesNo } from './ask-yes-no.ts';
import { parseBooleanFlag } from './boolean-flag.ts';

interface CreateApiFlags {
  group?: string;
  version?: string;
  kind: string;
  plural?: string;
  namespaced: boolean;
  resource?: boolean;
  controller?: boolean;
  multigroup: boolean;
  image?: string;
  port?: number;
  force: boolean;
  dryRun: boolean;
}

/** `tsoperator create api`: a kind's types, controller, test, sample and roles. */
export function registerCreateCommand(program: Command): void {
  // `create webhook` registers under the same parent, in whichever order the two are registered.
  const create =
    program.commands.find((c) => c.name() === 'create') ??
    program.command('create').description('add an API or a webhook to the project');
  create
    .command('api')
    .description(
      'scaffold a kind: its types, a controller registered in src/main.ts, a test, a sample and roles',
    )
    .requiredOption('--kind <kind>', 'the kind, in CamelCase, e.g. WebApp')
    .option('--group <group>', "the API group, without the domain; default: the project's group, else none")
    .option('--version <version>', 'the API version, e.g. v1 or v1beta1; default: v1')
    .option('--plural <plural>', 'the resource name; default: the English plural of the kind')
    .option('--namespaced [bool]', 'the kind is namespaced', parseBooleanFlag, true)
    .option('--no-namespaced', 'the kind is cluster-scoped')
    .option(
      '--resource [bool]',
      "create the types and CRD (default: true); false in a Kubernetes group (apps, batch) makes a controller for Kubernetes' own kind",
      parseBooleanFlag,
    )
    .option(
      '--no-resource',
      "do not create the types: with a Kubernetes group, a controller for Kubernetes' own kind",
    )
    .option(
      '--controller [bool]',
      'create a controller (default: true; asked when interactive)',
      parseBooleanFlag,
    )
    .option('--no-controller', 'do not create a controller')
    .option(
      '--multigroup [bool]',
      'allow a second group, making the project multi-group',
      parseBooleanFlag,
      false,
    )
    .option(
      '--image <image>',
      'the controller runs this container image as a Deployment behind a Service, e.g. nginx:1.27',
    )
    .option('--port <port>', 'the port the --image container listens on (default: 8080)', parsePort)
    .option('--force', 'regenerate an existing kind; files you changed are kept', false)
    .option('--dry-run', 'print what would be written, and write nothing', false)
    .action(async (flags: CreateApiFlags) => {
      const controller = flags.controller ?? (await askYesNo('Create a controller?', true));
      // Loaded when the command runs: the manifests generator brings the TypeScript compiler.
      const { scaffoldApi } = await import('../scaffold/api/scaffold-api.ts');
      const { formatChanges } = await import('../scaffold/format-changes.ts');
      const options = {
        dir: process.cwd(),
        kind: flags.kind,
        namespaced: flags.namespaced,
        multigroup: flags.multigroup,
        force: flags.force,
        ...optional({
          controller,
          group: flags.group,
          version: flags.version,
          plural: flags.plural,
          resource: flags.resource,
          image: flags.image,
          port: flags.port,
        }),
      };
      const printPlan = (plan: ApiPlan): void => {
        for (const taken of plan.defaultsTaken) process.stdout.write(`defaulted: ${taken}\n`);
        for (const reading of plan.readings) process.stdout.write(`note: ${reading}\n`);
        process.stdout.write(formatChanges(plan.changes));
      };
      const { manifests } = await scaffoldApi(options, { dryRun: flags.dryRun, onPlanApplied: printPlan });
      if (flags.dryRun) {
        process.stdout.write('dry run: nothing was written (a real run then regenerates the manifests)\n');
        return;
      }
      process.stdout.write(`manifests regenerated:\n${formatChanges(manifests)}`);
    });
}

/** The entries whose value was given, so that "not given" stays distinguishable from a value. */
function optional<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new InvalidArgumentError('a port is a whole number from 1 to 65535');
  }
  return port;
}

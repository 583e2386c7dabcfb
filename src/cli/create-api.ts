import { InvalidArgumentError, type Command } from 'commander';
import { splitCommand } from '../project/deploy-image.ts';
import { UsageError } from '../errors.ts';
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
  imageContainerPort?: number;
  imageContainerCommand?: string[];
  runAsUser?: number;
  plugins?: string[];
  make: boolean;
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
    .option('--image-container-port <port>', "the same as --port, by Kubebuilder's name", parsePort)
    .option(
      '--image-container-command <words>',
      "the --image container's command instead of its entrypoint, words separated by commas, e.g. memcached,--memory-limit=64",
      parseCommand,
    )
    .option(
      '--run-as-user <uid>',
      'the user id the --image container runs as (not 0: it runs as non-root)',
      parseUserId,
    )
    .option(
      '--plugins <keys>',
      `Kubebuilder's plugin choice: ${DEPLOY_IMAGE_KEYS[0]} is what --image does, and the only one taken`,
      parsePlugins,
    )
    .option(
      '--make [bool]',
      "regenerate the manifests after writing, as Kubebuilder's --make runs make generate; false leaves them to `tsoperator manifests`",
      parseBooleanFlag,
      true,
    )
    .option('--force', 'regenerate an existing kind; files you changed are kept', false)
    .option('--dry-run', 'print what would be written, and write nothing', false)
    .action(async (flags: CreateApiFlags) => {
      checkPlugins(flags);
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
          port: containerPort(flags),
          containerCommand: flags.imageContainerCommand,
          runAsUser: flags.runAsUser,
        }),
      };
      const printPlan = (plan: ApiPlan): void => {
        for (const taken of plan.defaultsTaken) process.stdout.write(`defaulted: ${taken}\n`);
        for (const reading of plan.readings) process.stdout.write(`note: ${reading}\n`);
        process.stdout.write(formatChanges(plan.changes));
      };
      const { manifests } = await scaffoldApi(options, {
        dryRun: flags.dryRun,
        onPlanApplied: printPlan,
        regenerateManifests: flags.make,
      });
      if (flags.dryRun) {
        process.stdout.write('dry run: nothing was written (a real run then regenerates the manifests)\n');
        return;
      }
      if (!flags.make) {
        process.stdout.write('manifests not regenerated (--make=false): run `tsoperator manifests` next\n');
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

/** Kubebuilder's names of its deploy-image plugin, which `--image` stands for. */
const DEPLOY_IMAGE_KEYS = ['deploy-image/v1-alpha', 'deploy-image.go.kubebuilder.io/v1-alpha'];

function parseCommand(value: string): string[] {
  const words = splitCommand(value);
  if (words.length === 0) throw new InvalidArgumentError("give the command's words separated by commas");
  return words;
}

function parseUserId(value: string): number {
  const uid = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(uid) || uid === 0) {
    throw new InvalidArgumentError(
      'a user id is a whole number above 0 (0 is root, and the container runs as non-root)',
    );
  }
  return uid;
}

function parsePlugins(value: string): string[] {
  const keys = value.split(',').filter((key) => key !== '');
  for (const key of keys) {
    if (!DEPLOY_IMAGE_KEYS.includes(key)) {
      throw new InvalidArgumentError(
        `tsoperator has no plugin ${key}; create api takes ${DEPLOY_IMAGE_KEYS[0]}, which is what --image does`,
      );
    }
  }
  return keys;
}

/** `--plugins deploy-image/v1-alpha` says what `--image` does, so it needs the image. */
function checkPlugins(flags: CreateApiFlags): void {
  if (flags.plugins !== undefined && flags.plugins.length > 0 && flags.image === undefined) {
    throw new UsageError(`--plugins ${flags.plugins.join(',')} runs an image: give it with --image`);
  }
}

/** `--port`, or Kubebuilder's `--image-container-port` for it; both only when they agree. */
function containerPort(flags: CreateApiFlags): number | undefined {
  const { port, imageContainerPort } = flags;
  if (port !== undefined && imageContainerPort !== undefined && port !== imageContainerPort) {
    throw new UsageError(
      `--port ${port} and --image-container-port ${imageContainerPort} name one port: give one`,
    );
  }
  return port ?? imageContainerPort;
}

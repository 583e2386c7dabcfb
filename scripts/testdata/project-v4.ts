import { userEdit } from './user-edit.ts';
import type { SampleContext } from './sample-projects.ts';

/** The example field `create api` writes, which the user replaces with the kind's own. */
const EXAMPLE_FIELD = `  // +optional
  /** foo is an example field of Captain: edit captain.types.ts to replace it with your own. */
  foo?: string;`;

/** Captain v1's fields, as its user writes them over the example. */
const CAPTAIN_V1_FIELDS = `  // +required
  /** shipName is the name of the ship the captain commands. */
  shipName: string;

  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=500
  // +optional
  /** crewSize is how many sail under the captain. */
  crewSize?: int32;

  // +kubebuilder:default=Captain
  // +optional
  /** rank is the captain's rank. */
  rank?: 'Captain' | 'Commodore';

  // +optional
  /** homePort is the port the ship sails from. */
  homePort?: string;`;

/** Captain v2: the same fields, but the home port is a structure, and a motto is new. */
const CAPTAIN_V2_FIELDS = `  // +required
  /** shipName is the name of the ship the captain commands. */
  shipName: string;

  // +kubebuilder:validation:Minimum=1
  // +kubebuilder:validation:Maximum=500
  // +optional
  /** crewSize is how many sail under the captain. */
  crewSize?: int32;

  // +kubebuilder:default=Captain
  // +optional
  /** rank is the captain's rank. */
  rank?: 'Captain' | 'Commodore';

  // +optional
  /** homePort is the port the ship sails from. */
  homePort?: Port;

  // +optional
  /** motto is what the captain says when leaving port. */
  motto?: string;
}

/** Port is a harbour. */
export interface Port {
  // +required
  /** name is the port's name. */
  name: string;

  // +optional
  /** country is where the port is. */
  country?: string;`;

/** The runtime types the edited fields use beside the scaffold's. */
const TYPES_IMPORT: readonly [string, string] = [
  'type Condition, type int64',
  'type Condition, type int32, type int64',
];

/**
 * project-v4: one group (crew) with the paths a user takes after the first kind. Captain, whose
 * spec the user writes over the example field, with defaulting, validation and a conversion
 * webhook from a v2 that changed a field; Memcached, a kind that runs an image (made with Kubebuilder's
 * deploy-image flags as its book prints them: image, command, port, user, --make=false), with
 * defaulting and validation webhooks; Admiral, cluster-scoped; a controller for Deployments; and
 * the installer and Helm chart built from it all.
 */
export async function projectV4({ tsoperator, dir, kubectl }: SampleContext): Promise<void> {
  await tsoperator(
    'init',
    '--domain',
    'testproject.org',
    '--project-name',
    'project-v4',
    '--owner',
    'The tsoperator authors',
  );

  await tsoperator(
    'create',
    'api',
    '--group',
    'crew',
    '--version',
    'v1',
    '--kind',
    'Captain',
    '--controller',
  );
  await userEdit(dir, 'src/api/v1/captain.types.ts', [TYPES_IMPORT, [EXAMPLE_FIELD, CAPTAIN_V1_FIELDS]]);
  await userEdit(dir, 'config/samples/crew_v1_captain.yaml', [
    ['  foo: bar', '  shipName: Black Pearl\n  crewSize: 12'],
  ]);
  await tsoperator('manifests');

  await tsoperator(
    'create',
    'api',
    '--group',
    'crew',
    '--version',
    'v1',
    '--kind',
    'Memcached',
    // Kubebuilder's deploy-image flags, as its book prints them.
    '--image=memcached:1.6.26-alpine3.19',
    '--image-container-command=memcached,--memory-limit=64,-o,modern,-v',
    '--image-container-port=11211',
    '--run-as-user=1001',
    '--plugins=deploy-image/v1-alpha',
    '--make=false',
    '--controller',
  );
  await tsoperator(
    'create',
    'api',
    '--group',
    'crew',
    '--version',
    'v1',
    '--kind',
    'Admiral',
    '--no-namespaced',
    '--controller',
  );
  await tsoperator(
    'create',
    'api',
    '--group',
    'apps',
    '--version',
    'v1',
    '--kind',
    'Deployment',
    '--no-resource',
    '--controller',
  );

  await tsoperator(
    'create',
    'api',
    '--group',
    'crew',
    '--version',
    'v2',
    '--kind',
    'Captain',
    '--no-controller',
  );
  await userEdit(dir, 'src/api/v2/captain.types.ts', [
    TYPES_IMPORT,
    [EXAMPLE_FIELD.replace('Captain:', 'Captain:'), CAPTAIN_V2_FIELDS],
  ]);
  await userEdit(dir, 'config/samples/crew_v2_captain.yaml', [
    ['  foo: bar', '  shipName: Black Pearl\n  homePort:\n    name: Tortuga'],
  ]);
  await tsoperator('manifests');

  await tsoperator(
    'create',
    'webhook',
    '--group',
    'crew',
    '--version',
    'v1',
    '--kind',
    'Captain',
    '--defaulting',
    '--programmatic-validation',
    '--conversion',
    '--spoke',
    'v2',
  );
  await tsoperator(
    'create',
    'webhook',
    '--group',
    'crew',
    '--version',
    'v1',
    '--kind',
    'Memcached',
    '--defaulting',
    '--programmatic-validation',
  );

  // deploy/: what `npm run build-installer` and `npm run build-chart` write, committed for releases.
  await tsoperator('build-installer', '--kubectl', kubectl);
  await tsoperator('build-chart', '--kubectl', kubectl);

  // grafana/: Kubebuilder's project-v4-with-plugins has its dashboards too.
  await tsoperator('edit', '--plugins', 'grafana');
}

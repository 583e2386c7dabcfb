import type { SampleContext } from './sample-projects.ts';

/**
 * project-v4-multigroup: a multi-group project whose operator watches its own namespace only
 * (`init --multigroup --namespaced`, Roles instead of ClusterRoles): Captain in crew with defaulting
 * and validation webhooks, Frigate in ship, and a controller for Deployments.
 */
export async function projectV4Multigroup({ tsoperator }: SampleContext): Promise<void> {
  await tsoperator(
    'init',
    '--domain',
    'testproject.org',
    '--project-name',
    'project-v4-multigroup',
    '--owner',
    'The tsoperator authors',
    '--multigroup',
    '--namespaced',
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
  await tsoperator(
    'create',
    'api',
    '--group',
    'ship',
    '--version',
    'v1beta1',
    '--kind',
    'Frigate',
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
    'webhook',
    '--group',
    'crew',
    '--version',
    'v1',
    '--kind',
    'Captain',
    '--defaulting',
    '--programmatic-validation',
  );
}

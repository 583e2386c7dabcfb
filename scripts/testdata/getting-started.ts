import type { SampleContext } from './sample-projects.ts';

/*
 * The book's Getting Started (docs/tutorial/getting-started.md): a Memcached operator from the
 * deploy-image scaffold, as Kubebuilder's Getting Started makes it, with no edit of the reader's: the
 * page explains each file the two commands write, including them whole.
 */
export async function gettingStarted({ tsoperator }: SampleContext): Promise<void> {
  await tsoperator('init', '--domain', 'example.com', '--project-name', 'memcached-operator');
  await tsoperator(
    'create',
    'api',
    '--group',
    'cache',
    '--version',
    'v1alpha1',
    '--kind',
    'Memcached',
    '--image',
    'memcached:1.6.26-alpine',
    '--port',
    '11211',
  );
}

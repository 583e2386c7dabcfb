import { readFile, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import { dump, loadAll } from 'js-yaml';
import { startEnvironment } from '../../src/envtest/index.ts';

/** An object of the bundle, as far as this check reads it. */
interface BundleObject {
  readonly apiVersion?: string;
  readonly kind?: string;
}

/**
 * Asks a control plane of its own whether it would take `bundle` (a build-installer output), as a
 * cluster's `kubectl apply --server-side -f` would: every object by a server-side dry run, after the
 * bundle's Namespaces are created for real (a dry-run Namespace does not exist for the objects in
 * it), with `kubectl` (the envtest binaries'). cert-manager's objects are left out: envtest has no
 * cert-manager. Returns those left out.
 */
export async function dryRunInstallBundle(bundle: string, kubectl: string): Promise<string[]> {
  const objects = loadAll(await readFile(bundle, 'utf8')).filter(
    (object): object is BundleObject => typeof object === 'object' && object !== null,
  );
  const certManager = (object: BundleObject): boolean =>
    object.apiVersion?.startsWith('cert-manager.io/') ?? false;
  const namespaces = objects.filter((object) => object.kind === 'Namespace');
  const checked = objects.filter((object) => !certManager(object));
  await using env = await startEnvironment();
  const apply = async (file: string, content: readonly BundleObject[], dryRun: boolean): Promise<void> => {
    await writeFile(file, content.map((object) => dump(object)).join('---\n'));
    const args = ['apply', '--server-side', '-f', file, ...(dryRun ? ['--dry-run=server'] : [])];
    await execa(kubectl, args, { env: { KUBECONFIG: env.kubeconfigPath } });
  };
  await apply(`${bundle}.namespaces.yaml`, namespaces, false);
  await apply(`${bundle}.checked.yaml`, checked, true);
  return objects.filter(certManager).map((object) => `${object.kind ?? ''} (${object.apiVersion ?? ''})`);
}

import { applyWrites } from '../scaffold/apply.ts';
import type { ImageReference } from './image-reference.ts';
import { kustomizeBuild } from './kustomize-build.ts';

/**
 * Where `npm run build-installer` writes: Kubebuilder's dist/install.yaml, in a folder of its own
 * because dist/ is the TypeScript compiler's, which a clean build empties and .gitignore leaves out.
 * deploy/ is committed, so that a tagged release installs with `kubectl apply -f <raw URL>`.
 */
export const INSTALLER_PATH = 'deploy/install.yaml';

export interface BuildInstallerOptions {
  /** The project's root folder. */
  readonly dir: string;
  readonly image: ImageReference;
  /** Default: INSTALLER_PATH, relative to `dir`. */
  readonly output?: string;
  /** Default: 'kubectl'. */
  readonly kubectl?: string;
}

/**
 * Writes config/default, built with the manager's image set, into one file that
 * `kubectl apply -f` installs the operator with. Returns the path written, relative to `dir`.
 *
 * @example
 * ```ts
 * await buildInstaller({ dir: '.', image: { name: 'ghcr.io/acme/op', tag: 'v1' } });
 * ```
 */
export async function buildInstaller(options: BuildInstallerOptions): Promise<string> {
  const yaml = await kustomizeBuild(options);
  const output = options.output ?? INSTALLER_PATH;
  await applyWrites(options.dir, [{ path: output, content: yaml }]);
  return output;
}

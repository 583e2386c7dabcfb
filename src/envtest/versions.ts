import { TsoperatorError } from '../errors.ts';

/**
 * The Kubernetes version tests run against when none is asked for: the newest release that builds
 * with the Go toolchain this project's CI has (1.37 needs Go 1.26).
 */
export const DEFAULT_KUBERNETES_VERSION = '1.37.2';

/** A Kubernetes release version, `1.37.2` (a leading `v` is accepted and dropped). */
export interface KubernetesVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** `1.37.2`, without the `v`. */
  readonly text: string;
}

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)$/;

/** Parses `1.37.2` or `v1.37.2`; anything else is an error that shows the expected form. */
export function parseKubernetesVersion(input: string): KubernetesVersion {
  const match = VERSION.exec(input.trim());
  if (!match) {
    throw new TsoperatorError(
      `"${input}" is not a Kubernetes version: give a full release version such as ${DEFAULT_KUBERNETES_VERSION}.`,
    );
  }
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (major !== 1 || minor < 30) {
    throw new TsoperatorError(
      `Kubernetes ${input} is not supported: envtest here needs 1.30.0 or newer (default ${DEFAULT_KUBERNETES_VERSION}).`,
    );
  }
  return { major, minor, patch, text: `${major}.${minor}.${patch}` };
}

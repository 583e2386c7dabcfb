import { UsageError } from '../errors.ts';

/** The channels a bundle is published in, and the one a subscription follows by default. */
export interface BundleChannels {
  readonly channels: readonly string[];
  readonly defaultChannel?: string;
}

/** A channel name as OLM's catalogs accept it: no commas or spaces, since the label lists them. */
const CHANNEL = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * `--channels a,b` and `--default-channel c`, checked: each name well formed, the default one of
 * the channels.
 *
 * @example
 * ```ts
 * parseBundleChannels('alpha,stable', 'stable'); // { channels: ['alpha', 'stable'], defaultChannel: 'stable' }
 * ```
 */
export function parseBundleChannels(list: string, defaultChannel?: string): BundleChannels {
  const channels = list.split(',').map((name) => name.trim());
  for (const name of channels) {
    if (!CHANNEL.test(name)) {
      throw new UsageError(
        `--channels ${JSON.stringify(list)}: ${JSON.stringify(name)} is not a channel name (letters, digits, ".", "_", "-")`,
      );
    }
  }
  if (defaultChannel === undefined) return { channels };
  if (!channels.includes(defaultChannel)) {
    throw new UsageError(
      `--default-channel ${defaultChannel} is not one of --channels ${channels.join(',')}: add it there`,
    );
  }
  return { channels, defaultChannel };
}

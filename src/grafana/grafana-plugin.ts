import { UsageError } from '../errors.ts';
import { GRAFANA_PLUGIN } from '../project/project-config.ts';

/** The optional plugins `--plugins` takes, by their short name and their key. */
export type OptionalPlugin = 'grafana';

const NAMES: Readonly<Record<string, OptionalPlugin>> = {
  grafana: 'grafana',
  [GRAFANA_PLUGIN]: 'grafana',
  'grafana.kubebuilder.io': 'grafana',
};

/**
 * `--plugins grafana` (or Kubebuilder's `grafana.kubebuilder.io/v1-alpha`), comma-separated.
 *
 * @example
 * ```ts
 * parsePlugins('grafana'); // ['grafana']
 * ```
 */
export function parsePlugins(list: string): OptionalPlugin[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return [
    ...new Set(
      names.map((name) => {
        const plugin = NAMES[name];
        if (plugin === undefined)
          throw new UsageError(`--plugins: unknown plugin ${JSON.stringify(name)}; tsoperator has: grafana`);
        return plugin;
      }),
    ),
  ];
}

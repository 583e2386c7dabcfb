import { code, prose, sentence, table, type Page } from './markdown.ts';
import type { MetricEntry } from './runtime-metrics.ts';

/** The metrics page: every metric the runtime registers, by name. */
export function metricsPage(metrics: readonly MetricEntry[]): Page {
  const rows = metrics.map((metric) => [
    code(metric.name),
    metric.type,
    metric.labels.map(code).join(', '),
    prose(sentence(metric.help)),
  ]);
  return {
    title: 'Metrics',
    source: "the runtime's metric definitions (`src/runtime`)",
    sections: [
      [
        "The manager serves these on `/metrics` under controller-runtime's and client-go's names, help",
        'texts and labels, so dashboards and alerts made for Go operators work unchanged. Each appears',
        'once the part of the runtime that records it runs: the webhook metrics with the webhook',
        'server, the `sharding_*` metrics in a sharded project. The metrics server also serves',
        "prom-client's default Node.js metrics (`nodejs_*` and more `process_*`), which depend on the",
        'platform and are not listed here.',
      ].join('\n'),
      table(['Metric', 'Type', 'Labels', 'Help'], rows),
    ],
    readNext: '[Commands](./commands.md), the CLI that scaffolds an operator with these metrics.',
  };
}

import type { DashboardSpec } from './dashboard.ts';

/** Where Kubebuilder's plugin writes the dashboard of the manager's CPU and memory. */
export const RESOURCES_DASHBOARD_PATH = 'grafana/controller-resources-metrics.json';

/** The selected Pod's series: these panels show one manager at a time. */
const POD_SELECTOR = 'job="$job", namespace="$namespace", pod="$pod"';

/** grafana/controller-resources-metrics.json, from the process metrics the metrics server adds. */
export const RESOURCES_DASHBOARD: DashboardSpec = {
  title: 'Controller-Resources-Metrics',
  uid: 'controller-resources-metrics',
  panels: [
    {
      kind: 'timeseries',
      title: 'Controller CPU usage',
      description: 'CPU the manager process used over the last 5 minutes, in percent of one core',
      unit: 'percent',
      queries: [
        {
          expr: `rate(process_cpu_seconds_total{${POD_SELECTOR}}[5m]) * 100`,
          legendFormat: 'Pod: {{pod}} | Container: {{container}}',
        },
      ],
    },
    {
      kind: 'timeseries',
      title: 'Controller memory usage',
      description: "The manager process's resident memory, and the part of it that is JavaScript heap in use",
      unit: 'bytes',
      queries: [
        {
          expr: `process_resident_memory_bytes{${POD_SELECTOR}}`,
          legendFormat: 'resident, Pod: {{pod}} | Container: {{container}}',
        },
        {
          expr: `nodejs_heap_size_used_bytes{${POD_SELECTOR}}`,
          legendFormat: 'heap used, Pod: {{pod}} | Container: {{container}}',
        },
      ],
    },
  ],
};

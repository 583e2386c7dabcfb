import type { StagingTree } from '../scaffold/staging-tree.ts';
import {
  CUSTOM_METRICS_CONFIG,
  CUSTOM_METRICS_CONFIG_PATH,
  CUSTOM_METRICS_DASHBOARD_PATH,
  customMetricsDashboard,
  parseCustomMetrics,
} from './custom-metrics.ts';
import { renderDashboard } from './dashboard.ts';
import { RESOURCES_DASHBOARD, RESOURCES_DASHBOARD_PATH } from './resources-dashboard.ts';
import { RUNTIME_DASHBOARD, RUNTIME_DASHBOARD_PATH } from './runtime-dashboard.ts';

/**
 * Stages grafana/ as Kubebuilder's grafana plugin writes it: the two dashboards regenerated (a
 * dashboard the user changed is kept, the new one beside it), the custom-metrics config written
 * once, and, when it lists metrics, the custom-metrics dashboard made from it.
 */
export async function stageGrafana(tree: StagingTree): Promise<void> {
  await tree.generate(RUNTIME_DASHBOARD_PATH, renderDashboard(RUNTIME_DASHBOARD), true);
  await tree.generate(RESOURCES_DASHBOARD_PATH, renderDashboard(RESOURCES_DASHBOARD), true);
  await tree.generateIfMissing(CUSTOM_METRICS_CONFIG_PATH, CUSTOM_METRICS_CONFIG);
  const metrics = parseCustomMetrics((await tree.read(CUSTOM_METRICS_CONFIG_PATH)) ?? '');
  if (metrics.length > 0)
    await tree.generate(
      CUSTOM_METRICS_DASHBOARD_PATH,
      renderDashboard(customMetricsDashboard(metrics)),
      true,
    );
}

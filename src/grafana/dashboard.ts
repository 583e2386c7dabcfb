/**
 * Grafana dashboards as Kubebuilder's grafana plugin writes them: JSON for Grafana's "Import
 * dashboard", with a Prometheus data source input and namespace, job and pod variables.
 */

/** One query of a panel. */
export interface PanelQuery {
  readonly expr: string;
  readonly legendFormat: string;
}

/** One time series panel, or a row heading the panels after it. */
export type PanelSpec =
  | {
      readonly kind: 'timeseries';
      readonly title: string;
      readonly description: string;
      readonly unit: string;
      readonly queries: readonly PanelQuery[];
      /** Share of the dashboard's 24 columns. Default: 12. */
      readonly width?: number;
    }
  | { readonly kind: 'row'; readonly title: string };

export interface DashboardSpec {
  readonly title: string;
  readonly uid: string;
  readonly panels: readonly PanelSpec[];
}

/** The selector of the scraped manager's series, set by the dashboard's variables. */
export const JOB_SELECTOR = 'job="$job", namespace="$namespace"';

const DATASOURCE = { type: 'prometheus', uid: '${DS_PROMETHEUS}' };
const PANEL_HEIGHT = 8;
const COLUMNS = 24;

/** The variable queries read the label values of a series every manager exports. */
const VARIABLE_SERIES = 'controller_runtime_reconcile_total';

/** The dashboard's JSON text, two-space indented as Grafana exports it. */
export function renderDashboard(spec: DashboardSpec): string {
  const dashboard = {
    __inputs: [
      {
        name: 'DS_PROMETHEUS',
        label: 'Prometheus',
        description: '',
        type: 'datasource',
        pluginId: 'prometheus',
        pluginName: 'Prometheus',
      },
    ],
    annotations: {
      list: [
        {
          builtIn: 1,
          datasource: { type: 'grafana', uid: '-- Grafana --' },
          enable: true,
          hide: true,
          iconColor: 'rgba(0, 211, 255, 1)',
          name: 'Annotations & Alerts',
          type: 'dashboard',
        },
      ],
    },
    editable: true,
    fiscalYearStartMonth: 0,
    graphTooltip: 0,
    links: [],
    liveNow: false,
    panels: layOut(spec.panels),
    refresh: '',
    schemaVersion: 39,
    tags: [],
    templating: { list: variables() },
    time: { from: 'now-15m', to: 'now' },
    timepicker: {},
    timezone: '',
    title: spec.title,
    uid: spec.uid,
    version: 1,
    weekStart: '',
  };
  return `${JSON.stringify(dashboard, null, 2)}\n`;
}

/** The panels with ids and grid positions: rows across, time series filling rows left to right. */
function layOut(panels: readonly PanelSpec[]): Record<string, unknown>[] {
  let x = 0;
  let y = 0;
  return panels.map((panel, index) => {
    const id = index + 1;
    if (panel.kind === 'row') {
      if (x > 0) y += PANEL_HEIGHT;
      x = 0;
      const row = {
        collapsed: false,
        gridPos: { h: 1, w: COLUMNS, x: 0, y },
        id,
        panels: [],
        title: panel.title,
        type: 'row',
      };
      y += 1;
      return row;
    }
    const width = panel.width ?? COLUMNS / 2;
    if (x + width > COLUMNS) {
      x = 0;
      y += PANEL_HEIGHT;
    }
    const gridPos = { h: PANEL_HEIGHT, w: width, x, y };
    x += width;
    return timeseries(panel, id, gridPos);
  });
}

function timeseries(
  panel: Extract<PanelSpec, { kind: 'timeseries' }>,
  id: number,
  gridPos: Record<string, number>,
): Record<string, unknown> {
  return {
    datasource: DATASOURCE,
    description: panel.description,
    fieldConfig: {
      defaults: {
        color: { mode: 'palette-classic' },
        custom: {
          drawStyle: 'line',
          fillOpacity: 10,
          lineInterpolation: 'linear',
          lineWidth: 1,
          showPoints: 'never',
          spanNulls: false,
        },
        unit: panel.unit,
      },
      overrides: [],
    },
    gridPos,
    id,
    options: {
      legend: { calcs: [], displayMode: 'list', placement: 'bottom', showLegend: true },
      tooltip: { mode: 'multi', sort: 'none' },
    },
    targets: panel.queries.map((query, index) => ({
      datasource: DATASOURCE,
      editorMode: 'code',
      expr: query.expr,
      legendFormat: query.legendFormat,
      range: true,
      refId: String.fromCharCode('A'.charCodeAt(0) + index),
    })),
    title: panel.title,
    type: 'timeseries',
  };
}

function variables(): Record<string, unknown>[] {
  const variable = (name: string, query: string): Record<string, unknown> => ({
    current: {},
    datasource: DATASOURCE,
    definition: query,
    hide: 0,
    includeAll: false,
    multi: false,
    name,
    options: [],
    query: { query, refId: 'StandardVariableQuery' },
    refresh: 2,
    regex: '',
    skipUrlSync: false,
    sort: 1,
    type: 'query',
  });
  return [
    variable('namespace', `label_values(${VARIABLE_SERIES}, namespace)`),
    variable('job', `label_values(${VARIABLE_SERIES}{namespace=~"$namespace"}, job)`),
    variable('pod', `label_values(${VARIABLE_SERIES}{namespace=~"$namespace", job=~"$job"}, pod)`),
  ];
}

/**
 * The part of Grafana's dashboard JSON model that triton-ops writes, typed so that a misspelt field is a compile
 * error rather than a panel Grafana silently drops. Field names follow Grafana's schema (schemaVersion 39).
 * @see https://grafana.com/docs/grafana/latest/dashboards/build-dashboards/view-dashboard-json-model/
 */

/** The schema version the model is written in; Grafana migrates older versions on load, never newer ones. */
export const GRAFANA_SCHEMA_VERSION = 39;

/** A data source reference; `uid` may be a variable such as `${datasource}`. */
export interface GrafanaDataSourceRef {
  readonly type: 'prometheus' | 'grafana';
  readonly uid: string;
}

/** Position on Grafana's 24-column grid; `h` and `y` count rows of 30 px. */
export interface GridPos {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** Panel units triton-ops uses (Grafana unit ids). */
export type GrafanaUnit = 'reqps' | 'percentunit' | 's' | 'bytes' | 'short';

/** One Prometheus query of a panel. */
export interface PrometheusTarget {
  readonly refId: string;
  readonly datasource: GrafanaDataSourceRef;
  readonly expr: string;
  readonly legendFormat: string;
  readonly editorMode: 'code';
  readonly range: true;
}

export interface TimeseriesPanel {
  readonly id: number;
  readonly type: 'timeseries';
  readonly title: string;
  readonly description: string;
  readonly datasource: GrafanaDataSourceRef;
  readonly gridPos: GridPos;
  readonly fieldConfig: {
    readonly defaults: {
      readonly unit: GrafanaUnit;
      readonly min?: number;
      readonly max?: number;
      readonly decimals?: number;
    };
    readonly overrides: readonly [];
  };
  readonly options: {
    readonly legend: {
      readonly showLegend: true;
      readonly displayMode: 'table' | 'list';
      readonly placement: 'bottom' | 'right';
      readonly calcs: readonly string[];
    };
    readonly tooltip: { readonly mode: 'multi' | 'single'; readonly sort: 'desc' | 'none' };
  };
  readonly targets: readonly PrometheusTarget[];
}

/** A selected value of a variable; `$__all` stands for "All". */
export interface VariableOption {
  readonly selected: boolean;
  readonly text: string | readonly string[];
  readonly value: string | readonly string[];
}

/** Lets the viewer pick the Prometheus data source; every query refers to it as `${datasource}`. */
export interface DatasourceVariable {
  readonly type: 'datasource';
  readonly name: string;
  readonly label: string;
  /** The data source plugin id offered. */
  readonly query: 'prometheus';
  readonly current: Record<string, never>;
  readonly hide: 0;
  readonly includeAll: false;
  readonly multi: false;
  readonly options: readonly [];
  readonly refresh: 1;
  readonly regex: '';
}

/** A variable whose values are read from Prometheus with `label_values(...)`. */
export interface QueryVariable {
  readonly type: 'query';
  readonly name: string;
  readonly label: string;
  readonly datasource: GrafanaDataSourceRef;
  readonly definition: string;
  readonly query: string;
  /** 2: reload the values whenever the time range changes, so new servers and models appear. */
  readonly refresh: 2;
  readonly current: VariableOption | Record<string, never>;
  readonly options: readonly VariableOption[];
  readonly hide: 0;
  readonly includeAll: boolean;
  readonly multi: boolean;
  readonly regex: '';
  /** 1: alphabetical, ascending. */
  readonly sort: 1;
}

export type GrafanaVariable = DatasourceVariable | QueryVariable;

export interface GrafanaAnnotation {
  readonly builtIn: 1;
  readonly datasource: GrafanaDataSourceRef;
  readonly enable: true;
  readonly hide: true;
  readonly iconColor: string;
  readonly name: string;
  readonly type: 'dashboard';
}

/** A whole dashboard, ready for JSON.stringify. */
export interface GrafanaDashboard {
  readonly annotations: { readonly list: readonly GrafanaAnnotation[] };
  readonly description: string;
  readonly editable: boolean;
  readonly fiscalYearStartMonth: 0;
  /** 1: shared crosshair across panels. */
  readonly graphTooltip: 0 | 1 | 2;
  /** Always null: Grafana assigns database ids; a provisioned dashboard is identified by `uid`. */
  readonly id: null;
  readonly links: readonly [];
  readonly panels: readonly TimeseriesPanel[];
  readonly refresh: string;
  readonly schemaVersion: number;
  readonly tags: readonly string[];
  readonly templating: { readonly list: readonly GrafanaVariable[] };
  readonly time: { readonly from: string; readonly to: string };
  readonly timepicker: Record<string, never>;
  readonly timezone: 'browser' | 'utc';
  readonly title: string;
  readonly uid: string;
  readonly version: number;
  readonly weekStart: '';
}

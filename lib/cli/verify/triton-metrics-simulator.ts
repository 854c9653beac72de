/**
 * A stand-in for the metrics port (8002) of every Triton pod an autoscaler targets, for `triton-ops verify`'s
 * Prometheus to scrape. It exports the families of the library's catalog (Triton's own, TensorRT-LLM's and vLLM's,
 * lib/triton/observability/triton-metrics.ts and llm-metrics.ts, each read from the pinned releases' sources) under the names,
 * types and labels Triton gives them, with the `namespace` and `pod` labels and the static ones (`triton_server`) the
 * ServiceMonitors' relabelling adds.
 * Under load every counter grows and every gauge is high (a KV cache full, requests queued for a second); idle, the
 * counters stop and the gauges fall to zero. Histograms are not exported: no autoscaler of the library reads one.
 * The series names come from the catalog, not from the adapter's rules, so a rule that reads a series Triton does not
 * export reads nothing here too.
 */
import { createServer, Server } from 'node:http';
import { TRITON_METRICS, TritonMetric } from '../../triton/observability/triton-metrics';
import { TRTLLM_METRICS, VLLM_METRICS } from '../../triton/llm/llm-metrics';

/** Requests per second per pod under load; each waits a second in the queue. */
const LOAD_RPS = 50;

/** The values of a category label, per family (the exporter's own sets, named in the catalog's help). */
const CATEGORIES: Readonly<Record<string, { label: string; loaded: Record<string, number>; idle: Record<string, number> }>> = {
  nv_trt_llm_kv_cache_block_metrics: {
    label: 'kv_cache_block_type',
    loaded: { max: 1000, used: 980, free: 20, tokens_per: 64 }, idle: { max: 1000, used: 0, free: 1000, tokens_per: 64 },
  },
  nv_trt_llm_request_metrics: {
    label: 'request_type',
    loaded: { active: 64, max: 64, scheduled: 64, context: 8, waiting: 200 }, idle: { active: 0, max: 64, scheduled: 0, context: 0, waiting: 0 },
  },
};

/** One pod whose metrics are exported. */
export interface SimulatedPod {
  readonly namespace: string;
  readonly pod: string;
  /** The target labels its scrape config adds (scrape-labels.ts), such as `triton_server`. */
  readonly labels?: Readonly<Record<string, string>>;
}

export class TritonMetricsSimulator {
  private server?: Server;
  private loaded = false;
  private lastTick = Date.now();
  /** Each pod's counters, by series key. */
  private readonly counters = new Map<string, number>();

  constructor(private readonly pods: () => Promise<readonly SimulatedPod[]>) {}

  /** Starts serving /metrics on 127.0.0.1:`port`. */
  start(port: number): Promise<void> {
    this.server = createServer((_req, res) => {
      this.render().then((text) => {
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
        res.end(text);
      }, (e: Error) => { res.writeHead(500); res.end(e.message); });
    });
    return new Promise((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
  }

  /** Load on or off: counters advance from now at the new rate. */
  setLoad(loaded: boolean): void {
    this.advance();
    this.loaded = loaded;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private advance(): void {
    const now = Date.now();
    const seconds = (now - this.lastTick) / 1000;
    this.lastTick = now;
    if (!this.loaded) return;
    for (const [key, value] of this.counters) this.counters.set(key, value + seconds * this.rateOf(key.split('{')[0]));
  }

  /** The per-second growth of a counter under load. */
  private rateOf(name: string): number {
    if (name === TRITON_METRICS.queueDurationUs.name || name === TRITON_METRICS.requestDurationUs.name) return LOAD_RPS * 1e6;
    if (name === TRITON_METRICS.computeInferDurationUs.name) return LOAD_RPS * 2e4;
    if (name === TRITON_METRICS.requestFailure.name) return 0;
    if (name.startsWith('vllm:')) return LOAD_RPS * 100;
    return LOAD_RPS;
  }

  private async render(): Promise<string> {
    this.advance();
    const families: TritonMetric[] = [...Object.values(TRITON_METRICS), ...Object.values(TRTLLM_METRICS), ...Object.values(VLLM_METRICS)]
      .filter((m) => m.type !== 'histogram');
    const lines: string[] = [];
    const pods = await this.pods();
    for (const m of families) {
      lines.push(`# HELP ${m.name} ${m.help}`, `# TYPE ${m.name} ${m.type}`);
      for (const p of pods) {
        const base: Record<string, string> = { namespace: p.namespace, pod: p.pod };
        for (const [k, v] of Object.entries(p.labels ?? {})) if (!(k in base)) base[k] = v;
        for (const l of m.labels) if (l === 'model') base.model = 'verify'; else if (l === 'version') base.version = '1';
        if (m.labels.includes('gpu_uuid')) base.gpu_uuid = `GPU-${p.pod}`;
        if (m.labels.includes('reason')) base.reason = 'REJECTED';
        const category = CATEGORIES[m.name];
        const series: Array<[Record<string, string>, number | undefined]> = category
          ? Object.entries(this.loaded ? category.loaded : category.idle).map(([v, n]) => [{ ...base, [category.label]: v }, n])
          : [[base, undefined]];
        for (const [labels, gauge] of series) {
          const key = `${m.name}{${Object.entries(labels).map(([k, v]) => `${k}="${v}"`).join(',')}}`;
          let value: number;
          if (m.type === 'counter') {
            if (!this.counters.has(key)) this.counters.set(key, 0);
            value = this.counters.get(key)!;
          } else {
            value = gauge ?? (this.loaded ? (m.name.startsWith('nv_gpu_memory') ? 2e10 : m.name === TRITON_METRICS.gpuUtilization.name ? 0.95 : 200) : 0);
          }
          lines.push(`${key} ${value}`);
        }
      }
    }
    return `${lines.join('\n')}\n`;
  }
}

import { mkdtempSync, readdirSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, relative } from 'path';
import { App, Testing } from 'cdk8s';
import { FleetChart, writeModelRepositories } from 'triton-ops';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { synthKubernetes } from '../../stacks/k8s';
import { VISION_FLEET } from '../../examples/vision-fleet';
import { inventory } from './inventory';

const chart = (app: App = Testing.app()) => new FleetChart(app, 'vision', { fleet: VISION_FLEET });
const find = (objects: any[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

/** Synthesizes the YAML side the way `npm run synth` does, into fresh folders; returns file -> bytes, by output folder. */
function synthToFiles(): Map<string, Buffer> {
  const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-synth-'));
  synthKubernetes({ manifests: join(outdir, 'dist'), artifacts: join(outdir, 'artifacts') });
  const files = new Map<string, Buffer>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(outdir, path), readFileSync(path));
    }
  };
  walk(outdir);
  return files;
}

describe('the vision fleet example', () => {
  const objects = Testing.synth(chart());

  test('inventory of the whole chart, each object digested', () => {
    expect(inventory(objects)).toMatchSnapshot();
  });

  test('is the default fleet', () => {
    expect(DEFAULT_FLEET).toBe(VISION_FLEET);
  });

  test('has every kind the reference platform needs', () => {
    expect(new Set(objects.map((o) => o.kind))).toEqual(expect.objectContaining(new Set([
      'Gateway', 'VirtualService', 'DestinationRule', 'PeerAuthentication', 'AuthorizationPolicy', 'ServiceMonitor',
      'PrometheusRule', 'ScaledObject', 'DaemonSet', 'Deployment', 'ConfigMap',
    ])));
    const gateway = find(objects, 'Gateway', 'vision');
    expect(gateway.spec.servers[0].tls.credentialName).toBe('vision-tls');
    expect(gateway.spec.servers.flatMap((s: any) => s.hosts)).not.toContain('*');
  });

  test('every Triton pod is under STRICT mTLS, authorized and scraped', () => {
    expect(find(objects, 'PeerAuthentication', 'default').spec.mtls.mode).toBe('STRICT');
    for (const server of ['classifier-v1', 'classifier-v2', 'segmenter']) {
      expect(find(objects, 'AuthorizationPolicy', `${server}-allow`)).toBeDefined();
      for (const kind of ['ServiceMonitor', 'PrometheusRule']) {
        expect(objects.filter((o) => o.kind === kind && o.metadata.labels['app.kubernetes.io/instance'] === server)).toHaveLength(1);
      }
      expect(find(objects, 'ScaledObject', server)).toBeDefined();
    }
  });

  test('alerts are routed by tier: P1 pages, P2 goes to chat, P3 to tickets, credentials from one Secret', () => {
    const config = find(objects, 'AlertmanagerConfig', 'triton-alerts');
    expect(config.metadata.namespace).toBe('inference');
    expect(config.spec.route.routes.map((r: any) => [r.matchers[0].value, r.receiver])).toEqual([
      ['P1', 'pagerduty'], ['P2', 'slack'], ['P3', 'tickets']]);
    const secrets = config.spec.receivers.flatMap((r: any) => Object.values(r).filter(Array.isArray).flatMap((c: any) => c))
      .map((c: any) => c.routingKey ?? c.apiURL ?? c.urlSecret);
    expect(secrets.map((s: any) => s.name)).toEqual(['vision-alerting', 'vision-alerting', 'vision-alerting']);
  });

  test('the classifier release splits 90/10 on its host through the gateway', () => {
    const vs = find(objects, 'VirtualService', 'classifier');
    expect(vs.spec.hosts).toEqual(['classify.vision.example.com']);
    expect(vs.spec.gateways).toContain('istio-system/vision');
    expect(vs.spec.http.find((r: any) => r.name === 'weighted').route.map((r: any) => [r.destination.subset, r.weight]))
      .toEqual([['v1', 90], ['v2', 10]]);
    expect(find(objects, 'VirtualService', 'segmenter').spec.hosts).toEqual(['segment.vision.example.com']);
  });

  test('the classifiers pin their model version and use two GPU instances on one GPU', () => {
    const fleet = chart();
    expect(fleet.servers['classifier-v1'].modelConfigs.resnet50).toContain('version_policy: { specific: { versions: [ 1 ] } }');
    expect(fleet.servers['classifier-v2'].modelConfigs.resnet50).toContain('version_policy: { specific: { versions: [ 2 ] } }');
    expect(fleet.servers['classifier-v1'].modelConfigs.resnet50).toContain('preferred_batch_size: [ 4, 8, 16, 32 ]');
    expect(fleet.servers.segmenter.modelConfigs.segmenter).toContain('max_batch_size: 8');
    for (const server of Object.values(fleet.servers)) {
      expect(server.gpus).toBe(1);
      expect(server.warnings).toEqual([]);
      expect(server.nodeGroup).toBe('gpu-a10g');
    }
  });

  test('writes only the fleets\' manifests to dist/<cluster>/; the model repository tree and the promtool files to artifacts/', () => {
    const files = [...synthToFiles().keys()].sort();
    // One folder per cluster: vision and search run on ml-serving, llm on llm-serving; each cluster's shared objects once.
    expect(files.filter((f) => f.startsWith('dist/'))).toEqual([
      'dist/llm-serving/cluster.yaml', 'dist/llm-serving/llm.yaml',
      'dist/ml-serving/cluster.yaml', 'dist/ml-serving/search.yaml', 'dist/ml-serving/vision.yaml',
    ]);
    expect(files.filter((f) => f.startsWith('artifacts/model-repository/'))).toEqual([
      'artifacts/model-repository/chat-405b/llama-405b/1/model.json',
      'artifacts/model-repository/chat-405b/llama-405b/config.pbtxt',
      'artifacts/model-repository/chat-70b/llama-70b-postprocessing/config.pbtxt',
      'artifacts/model-repository/chat-70b/llama-70b-preprocessing/config.pbtxt',
      'artifacts/model-repository/chat-70b/llama-70b-tensorrt-llm/1/.keep',
      'artifacts/model-repository/chat-70b/llama-70b-tensorrt-llm/config.pbtxt',
      'artifacts/model-repository/chat-70b/llama-70b/1/.keep',
      'artifacts/model-repository/chat-70b/llama-70b/config.pbtxt',
      'artifacts/model-repository/chat-8b/llama-8b/1/model.json',
      'artifacts/model-repository/chat-8b/llama-8b/config.pbtxt',
      'artifacts/model-repository/classifier-v1/resnet50/config.pbtxt',
      'artifacts/model-repository/classifier-v2/resnet50/config.pbtxt',
      'artifacts/model-repository/fraud-v1/fraud/config.pbtxt',
      'artifacts/model-repository/fraud-v2/fraud/config.pbtxt',
      'artifacts/model-repository/ranker-v1/ranker/configs/ranker-v1.pbtxt',
      'artifacts/model-repository/ranker-v2/ranker/configs/ranker-v2.pbtxt',
      'artifacts/model-repository/segmenter/segmenter/config.pbtxt',
    ]);
    expect(files).toContain('artifacts/promtool/inference-segmenter.rules.yaml');
    expect(files.every((f) => f.startsWith('dist/') || f.startsWith('artifacts/'))).toBe(true);
  });

  test('two synths give byte-identical files with no absolute paths', () => {
    const first = synthToFiles();
    const second = synthToFiles();
    expect([...second.keys()]).toEqual([...first.keys()]);
    for (const [file, bytes] of first) {
      expect(second.get(file)!.equals(bytes)).toBe(true);
      expect(bytes.toString()).not.toContain('triton-ops-synth-');
    }
  });

  test('the model repositories of a chart alone are written beside it', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'vision-'));
    expect(writeModelRepositories(chart(), outdir)).toHaveLength(3);
  });
});

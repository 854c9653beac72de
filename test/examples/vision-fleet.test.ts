import { createHash } from 'crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, relative } from 'path';
import { App, Testing, YamlOutputType } from 'cdk8s';
import { writeModelRepositories } from 'triton-ops';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { modelReaderRoleArn } from '../../stacks/fleet-description';
import { visionChart } from '../../stacks/vision-chart';

const defaultFleet = (app: App) => visionChart(app, DEFAULT_FLEET, (server) => modelReaderRoleArn(DEFAULT_FLEET, server));

/** Synthesizes the default fleet the way stacks/k8s.ts does, into a fresh folder; returns file -> bytes. */
function synthToFiles(): Map<string, Buffer> {
  const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-synth-'));
  const app = new App({ outdir, outputFileExtension: '.yaml', yamlOutputType: YamlOutputType.FILE_PER_CHART });
  defaultFleet(app);
  app.synth();
  writeModelRepositories(app, outdir);
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
  test('snapshot of the whole stack', () => {
    const app = Testing.app();
    // The dashboard JSON (20 KB) is asserted by its own tests; here a digest stands for it, so the snapshot stays
    // small enough to review and still changes when the dashboard does.
    const objects = Testing.synth(defaultFleet(app)).map((o) => (o.kind === 'ConfigMap' && o.metadata.name === 'triton-inference'
      ? { ...o, data: Object.fromEntries(Object.entries(o.data as Record<string, string>)
        .map(([k, v]) => [k, `sha256:${createHash('sha256').update(v).digest('hex')}`])) }
      : o));
    expect(objects).toMatchSnapshot();
  });

  test('synthesizes the YAML and a model-repository tree', () => {
    expect([...synthToFiles().keys()].sort()).toEqual([
      'model-repository/classifier/resnet50/config.pbtxt',
      'model-repository/segmenter/segmenter/config.pbtxt',
      'vision.yaml',
    ]);
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

  test('the classifier serves ResNet-50 with two GPU instances on one GPU, the segmenter its model', () => {
    const app = Testing.app();
    const fleet = defaultFleet(app);
    expect(fleet.servers.classifier.modelConfigs.resnet50).toContain('preferred_batch_size: [ 4, 8, 16, 32 ]');
    expect(fleet.servers.classifier.modelConfigs.resnet50).toContain('max_queue_delay_microseconds: 500');
    expect(fleet.servers.segmenter.modelConfigs.segmenter).toContain('max_batch_size: 8');
    expect(fleet.servers.segmenter.modelConfigs.segmenter).toContain('max_queue_delay_microseconds: 200');
    expect(fleet.servers.classifier.gpus).toBe(1);
    expect(fleet.servers.classifier.warnings).toEqual([]);
    expect(fleet.servers.classifier.nodeGroup).toBe('gpu-a10g');
    const accounts = Testing.synth(fleet).filter((o) => o.kind === 'ServiceAccount' && o.metadata.name === 'classifier');
    expect(accounts[0].metadata.annotations['eks.amazonaws.com/role-arn']).toBe('arn:aws:iam::123456789012:role/vision-classifier-models');
  });
});

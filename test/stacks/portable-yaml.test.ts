import { spawnSync } from 'child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, relative } from 'path';
import { Testing, Yaml } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { FleetChart, PROMETHEUS_ADAPTER_RULES_DEFAULTS } from '../../lib';
import { ADAPTER_CONFIG_KEY } from '../../lib/k8s/autoscaling';
import { synthKubernetes } from '../../stacks/k8s';
import { VISION_FLEET } from '../../examples/vision-fleet';
import { withHpa } from '../fleet/fixtures';

/**
 * Every YAML text the YAML side writes must load, and load to the same data, under YAML 1.2 (the `yaml` package, as
 * kubectl and Go's sigs.k8s.io/yaml read plain values) and YAML 1.1 (PyYAML's safe_load_all, Debian's python3-yaml, as
 * Ansible, pre-commit hooks and other Python tools read it).
 */
const PYTHON = '/usr/bin/python3';
/** Loads each text of a JSON object {name: text} with PyYAML's safe_load_all, in one process; answers {name: {docs} | {error}}. */
const PYYAML_LOADER = `
import json, sys, yaml
texts = json.load(sys.stdin)
out = {}
for name, text in texts.items():
    try:
        out[name] = {"docs": list(yaml.safe_load_all(text))}
    except Exception as error:
        out[name] = {"error": str(error).splitlines()[0]}
json.dump(out, sys.stdout, default=lambda value: {"not JSON": type(value).__name__ + " " + repr(value)})
`;

type Loaded = { docs: unknown[] } | { error: string };

function loadWithPyYaml(texts: Record<string, string>): Record<string, Loaded> {
  const run = spawnSync(PYTHON, ['-c', PYYAML_LOADER], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`${PYTHON} with PyYAML failed (apt-get install python3-yaml): ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** YAML 1.2 (the `yaml` package's default core schema), as JSON would carry it. */
function loadWithYaml(text: string): Loaded {
  const docs = parseAllDocuments(text);
  const errors = docs.flatMap((d) => d.errors.map((e) => e.message));
  return errors.length > 0 ? { error: errors[0] } : { docs: JSON.parse(JSON.stringify(docs.map((d) => d.toJS()))) };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('every YAML file of the three example fleets loads to the same data under YAML 1.2 and YAML 1.1', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'triton-ops-portable-'));
  synthKubernetes({ manifests: join(outdir, 'dist'), artifacts: join(outdir, 'artifacts') });
  const texts: Record<string, string> = {};
  for (const file of filesUnder(outdir).filter((f) => /\.ya?ml$/.test(f))) texts[relative(outdir, file)] = readFileSync(file, 'utf8');
  // The YAML files inside ConfigMaps (the device plugin's config, the adapter rules), which Go and Python tools read too.
  for (const [file, text] of Object.entries({ ...texts })) {
    for (const object of parseAllDocuments(text).map((d) => d.toJS())) {
      if (object?.kind !== 'ConfigMap') continue;
      for (const [key, value] of Object.entries<string>(object.data ?? {})) {
        if (/\.ya?ml$/.test(key)) texts[`${file}: ConfigMap ${object.metadata.namespace}/${object.metadata.name} ${key}`] = value;
      }
    }
  }
  // The adapter rules, which the examples no longer have (KEDA is the default engine): those of the vision fleet on engine 'hpa'.
  const rules = Testing.synth(new FleetChart(Testing.app(), 'vision', { fleet: withHpa(VISION_FLEET) }))
    .find((o) => o.kind === 'ConfigMap' && o.metadata.name === PROMETHEUS_ADAPTER_RULES_DEFAULTS.name);
  texts[`vision on engine hpa: ConfigMap monitoring/${PROMETHEUS_ADAPTER_RULES_DEFAULTS.name} ${ADAPTER_CONFIG_KEY}`] = rules.data[ADAPTER_CONFIG_KEY];
  const pyyaml = loadWithPyYaml(texts);

  test('the files: every cluster folder of dist/, the promtool files, the YAML inside ConfigMaps', () => {
    const names = Object.keys(texts);
    expect(names.filter((n) => n.startsWith('dist/') && !n.includes(': '))).toEqual([
      'dist/llm-serving/cluster.yaml', 'dist/llm-serving/llm.yaml',
      'dist/ml-serving/cluster.yaml', 'dist/ml-serving/search.yaml', 'dist/ml-serving/vision.yaml',
    ]);
    expect(names.filter((n) => n.startsWith('artifacts/promtool/'))).toHaveLength(30);
    expect(names.filter((n) => n.includes('triton-ops-adapter-rules'))).toEqual(['vision on engine hpa: ConfigMap monitoring/triton-ops-adapter-rules config.yaml']);
    expect(names).toContain('dist/ml-serving/cluster.yaml: ConfigMap nvidia-device-plugin/nvidia-device-plugin config.yaml');
  });

  test('PyYAML (YAML 1.1) loads each one, to the data the yaml package (YAML 1.2) loads', () => {
    const differing = Object.keys(texts).filter((name) => JSON.stringify(pyyaml[name]) !== JSON.stringify(loadWithYaml(texts[name])));
    for (const name of differing) expect({ name, pyyaml: pyyaml[name] }).toEqual({ name, pyyaml: loadWithYaml(texts[name]) });
    expect(differing).toEqual([]);
    expect(Object.values(pyyaml).filter((l) => 'error' in l)).toEqual([]);
  });
});

/**
 * Why the output is portable, and what the library must still avoid: cdk8s writes every file with the `yaml` package's
 * YAML 1.1 schema (cdk8s' Yaml.stringify, used by App.synth and writePromtoolFiles), which quotes the strings YAML 1.1
 * would read as booleans, nulls, numbers (sexagesimal, octal) or timestamps. It leaves two YAML 1.1 types plain, which
 * PyYAML refuses: `=` (tag:yaml.org,2002:value) and `<<` (the merge key). The library writes neither as a plain value:
 * an equality matcher of an AlertmanagerConfig leaves `matchType` out (test/k8s/monitoring/triton-alert-routing.test.ts).
 */
describe('the cdk8s writer and the YAML 1.1 traps', () => {
  const TRAPS = ['on', 'off', 'yes', 'no', 'y', 'n', 'Y', 'N', 'True', '~', 'null', '1:30', '190:20:30', '0755', '0x1F', '1_000',
    '2026-12-02', '.inf', '.NaN', '+1', '1e3', '=', '<<'];
  const written = Object.fromEntries(TRAPS.map((trap) => [trap, Yaml.stringify({ value: trap, [trap]: 'key' })]));
  const loaded = loadWithPyYaml(written);

  test('every trap the writer quotes loads as the same string; only `=` and `<<` are left plain, and PyYAML refuses them', () => {
    const same = (trap: string) => JSON.stringify(loaded[trap]) === JSON.stringify({ docs: [{ value: trap, [trap]: 'key' }] });
    expect(TRAPS.filter((trap) => !same(trap))).toEqual(['=', '<<']);
    expect(loaded['=']).toEqual({ error: "could not determine a constructor for the tag 'tag:yaml.org,2002:value'" });
    expect(written['=']).toBe('value: =\n=: key\n');
  });
});

/**
 * README.md and the reference pages under docs/ quote what the code prints: every ```text block is marked
 * (`<!-- output: id -->`, test/docs/quotes.ts) and regenerated here from the real code, and a difference fails with the
 * command that rewrites the blocks (`UPDATE_README=1 npx jest test/docs`). The default fleets are synthesized once into
 * a temporary folder (removed after), which `triton-ops check` then reads: in a child process, since its schema
 * packages are ESM-only (test/cli/run-ts.js), started early so that it runs while the other cases are computed.
 * The README's constructs example is a file of this folder, type-checked with the project and run here.
 * Every relative link of README.md and docs/*.md (not the generated docs/api) must name a file and, after `#`, one of
 * its headings.
 */
import '../aws/setup-cdktf';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { App, Chart } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { FleetChart, ModelConfig, ModelRepository, runSynthFleet, synthFleet, TritonServer, VersionPolicy } from '../../lib';
import { checkFleetShape, FleetDescription } from '../../lib/fleet/index';
import { run as diff } from '../../lib/cli/diff';
import { run as pins } from '../../lib/cli/pins';
import { planFleet } from '../../lib/fleet/fleet-plan';
import { describeChanges } from '../../lib/testing';
import { SEARCH_FLEET } from '../../examples/search-ranking';
import { DEFAULT_FLEET } from '../../stacks/fleet';
import { synthAll, synthOptions } from '../../stacks/synth';
import { ROOT, runCheck, runInProcess } from '../cli/check-helpers';
import { EXPOSED, withServer } from '../fleet/fixtures';
import { howToUpdate, staleQuotes, unmarkedTextBlocks } from './quotes';

/** The pages this test keeps true; docs/troubleshooting.md and docs/app.md have their own tests. */
const PAGES = ['README.md', 'docs/fleets.md', 'docs/constructs.md', 'docs/ci.md'] as const;

let dir: string;
let cleanCheck: Promise<string>;
let brokenCheck: Promise<string>;
let summary: string[];

/** What `triton-ops check ...args` prints on stdout, run from `cwd` (in this process, as test/cli does). */
async function checkOutput(args: readonly string[], cwd: string): Promise<string> {
  return (await runCheck(args, { cwd })).stdout;
}

/** Edits the first YAML document of `file` for which `edit` returns true. */
function editYaml(file: string, edit: (doc: ReturnType<typeof parseAllDocuments>[number]) => boolean): void {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'), { version: '1.1' }) as ReturnType<typeof parseAllDocuments>;
  if (!docs.some(edit)) throw new Error(`${file}: nothing to edit`);
  writeFileSync(file, docs.map((d) => d.toString()).join(''));
}

/** Runs `body` with `dir` as the working directory, as a user runs the commands from the project root. */
function inDir<T>(body: () => T): T {
  const previous = process.cwd();
  process.chdir(dir);
  try {
    return body();
  } finally {
    process.chdir(previous);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'triton-ops-readme-'));
  // The day the summary was quoted, fixed so that it never depends on the clock: what a user saw that day, warnings of
  // the end-of-life calendar included.
  summary = inDir(() => synthAll(undefined, undefined, '2026-12-05'));
  // One check at a time: each runs in this process, from its own working directory.
  cleanCheck = Promise.resolve(await checkOutput([], dir));
  // A broken copy of the YAML: a schema error and an unknown field in one object, a route to a Service that is not there.
  cpSync(join(dir, 'dist'), join(dir, 'broken', 'dist'), { recursive: true });
  editYaml(join(dir, 'broken', 'dist', 'ml-serving', 'vision.yaml'), (d) => d.get('kind') === 'Deployment'
    && (d.setIn(['spec', 'minReadySeconds'], 'soon'), d.setIn(['spec', 'template', 'spec', 'bogusField'], true), true));
  editYaml(join(dir, 'broken', 'dist', 'ml-serving', 'search.yaml'), (d) => d.get('kind') === 'VirtualService'
    && (d.setIn(['spec', 'http', 0, 'route', 0, 'destination', 'host'], 'missing.search.svc.cluster.local'), true));
  brokenCheck = Promise.resolve(await checkOutput(['dist'], join(dir, 'broken')));
}, 120_000);

afterAll(async () => {
  await Promise.allSettled([cleanCheck, brokenCheck]);
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** What `runSynthFleet` prints for `fleets`, with the options of `npm run synth` (it fails, so nothing is written). */
function synthReport(fleets: readonly FleetDescription[]): string {
  let text = '';
  const exitCode = process.exitCode;
  const dirs = { manifests: join(dir, 'failed', 'dist'), artifacts: join(dir, 'failed', 'artifacts'), terraform: join(dir, 'failed', 'cdktf.out') };
  try {
    runSynthFleet(fleets, { ...synthOptions(dirs, { yaml: fleets, terraform: fleets }), output: { write: (t: string) => { text += t; } } });
  } finally {
    process.exitCode = exitCode;
  }
  return text.trimEnd();
}

/** The message `build` is refused with. */
function refusal(build: () => unknown): string {
  try {
    build();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal, but the build succeeded');
}

const server = (name: string) => DEFAULT_FLEET.servers[name];
const withServers = (servers: FleetDescription['servers'], fleet = DEFAULT_FLEET): FleetDescription => ({ ...fleet, servers: { ...fleet.servers, ...servers } });

/** The default fleet with a pool too small for its servers and two refused servers: problems the plan and the constructs find. */
const BROKEN = {
  ...withServers({
    'classifier-v1': { ...server('classifier-v1'), drainSeconds: 0 },
    'classifier-v2': { ...server('classifier-v2'), image: 'nvcr.io/nvidia/tritonserver:latest' },
  }),
  nodePools: { 'gpu-a10g': { ...DEFAULT_FLEET.nodePools!['gpu-a10g'], maxSize: 10 } },
};

/** Two misspelt keys and a cluster name EKS refuses: problems the description's schema finds first. */
const TYPOS = {
  ...withServers({
    'classifier-v1': { ...server('classifier-v1'), autoscale: { ...server('classifier-v1').autoscale!, minReplica: 3 } as never },
    'segmenter': { ...server('segmenter'), modelLoadSecond: 900 } as never,
  }),
  cluster: { name: 'ml serving' },
};

/** The search fleet with ranker-v2 on `image`, its canary at `stage`. */
const search = (image: string, stage: number): FleetDescription => ({
  ...withServers({ 'ranker-v2': { ...SEARCH_FLEET.servers['ranker-v2'], image } }, SEARCH_FLEET),
  releases: { ...SEARCH_FLEET.releases, ranker: { ...SEARCH_FLEET.releases!.ranker, stage } },
});
const BEFORE = search('nvcr.io/nvidia/tritonserver:26.06-py3', 0);
const AFTER = search('nvcr.io/nvidia/tritonserver:26.07-py3', 1);
const searchChart = (fleet: FleetDescription) => new FleetChart(new App(), 'search', { fleet });

const RESNET50: ModelConfig = {
  name: 'resnet50', platform: 'onnxruntime_onnx', maxBatchSize: 32,
  inputs: [{ name: 'input', dataType: 'FP32', format: 'FORMAT_NCHW', dims: [3, 224, 224] }],
  outputs: [{ name: 'output', dataType: 'FP32', dims: [1000] }],
  dynamicBatching: { preferredBatchSizes: [4, 64], maxQueueDelayMicroseconds: 500 },
  instanceGroups: [{ kind: 'KIND_GPU', count: 2 }],
};

const ONLY = 'VirtualService:spec.http[*].route[*].weight';

/** Each page's quoted outputs, by marker id. */
const CASES: Record<(typeof PAGES)[number], Record<string, () => string | Promise<string>>> = {
  'README.md': {
    'output: synth-summary': () => summary.join('\n'),
    'output: synth-failure': () => synthReport([BROKEN]),
    'output: schema-typos': () => synthReport([TYPOS]),
    'output: check-report': () => cleanCheck.then((out) => `$ npx triton-ops check\n${out.trimEnd()}`),
  },
  'docs/fleets.md': {
    'output: schema-problems': () => refusal(() => checkFleetShape(TYPOS)),
    'output: plan-problems': () => refusal(() => planFleet(withServers({
      'classifier-v1': { ...server('classifier-v1'), replicas: 3 },
      'segmenter': { ...server('segmenter'), nodePool: 'gpu-h100' },
    }, {
      ...DEFAULT_FLEET,
      releases: { classifier: { ...DEFAULT_FLEET.releases!.classifier, versions: [{ version: 'v1', server: 'classifier-v1' }, { version: 'v3', server: 'classifier-v3' }] } },
    }))),
    'output: bucket-problems': () => refusal(() => planFleet({
      ...EXPOSED,
      modelBucket: { name: 'shop-models', existing: true, accountId: '444455556666', crossAccountAccess: true },
      servers: { ...EXPOSED.servers, cpu2: { ...EXPOSED.servers.cpu2, models: [{ ...EXPOSED.servers.cpu2.models[0], versionPolicy: VersionPolicy.specific(2) }] } },
      releases: { store: { ...EXPOSED.releases!.store, sharedRepository: true } },
    })),
    'output: pod-fit': () => refusal(() => new FleetChart(new App(), 'shop', { fleet: withServer('gpu', { cpuRequestMillis: 4000 }) })),
    'output: pins': async () => {
      const { out } = await runInProcess(pins, []);
      return ['$ npx triton-ops pins', ...out.split('\n').slice(0, 6), '...'].join('\n');
    },
    'output: pins-check': async () => {
      const lines = (await runInProcess(pins, ['--check', '--date', '2026-12-05'])).out.trimEnd().split('\n');
      return ['$ npx triton-ops pins --check --date 2026-12-05', lines[0], '...', lines[lines.length - 1]].join('\n');
    },
  },
  'docs/constructs.md': {
    'output: construct-problems': () => refusal(() => {
      const chart = new Chart(new App(), 'vision', { namespace: 'inference' });
      new TritonServer(chart, 'classifier', {
        image: 'nvcr.io/nvidia/tritonserver:latest',
        repository: ModelRepository.fromClaim('models'),
        models: [RESNET50],
        gpus: 1,
        terminationGracePeriodSeconds: 30,
      });
    }),
  },
  'docs/ci.md': {
    // The report of a real run, which .ci/verify.sh writes and compares (verify needs binaries npm test does not build).
    'output: verify-report': () => readFileSync(join(ROOT, 'test', 'docs', 'verify-report.txt'), 'utf8').trimEnd(),
    'output: check-problems': () => brokenCheck.then((out) => `$ npx triton-ops check dist\n${out.trimEnd()}`),
    'output: describe-changes': () => describeChanges(searchChart(BEFORE), searchChart(AFTER)).join('\n'),
    'output: diff': async () => {
      const [cwd, exitCode] = [process.cwd(), process.exitCode];
      try {
        process.chdir(dir);
        synthFleet(BEFORE, { yamlDir: 'main/dist', artifactsDir: 'main/artifacts', quiet: true });
        synthFleet(AFTER, { yamlDir: 'review/dist', artifactsDir: 'review/artifacts', quiet: true });
        const { out } = await runInProcess(diff, ['main/dist', 'review/dist', '--only', ONLY]);
        return `$ npx triton-ops diff main/dist review/dist --only '${ONLY}'\n${out.trimEnd()}`;
      } finally {
        process.chdir(cwd);
        process.exitCode = exitCode;
      }
    },
  },
};

describe.each(PAGES)('%s', (page) => {
  const file = join(ROOT, page);

  test('quotes what the code prints today', async () => {
    const cases: Record<string, string> = {};
    for (const [id, output] of Object.entries(CASES[page])) cases[id] = await output();
    const stale = staleQuotes(file, cases);
    if (stale.length > 0) throw new Error(howToUpdate(page, stale));
  }, 60_000);
});

test("README's constructs example is test/docs/constructs-example.ts (type-checked with the project), and it runs", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const quoted = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## The constructs')))![1];
  expect(quoted).toBe(readFileSync(join(__dirname, 'constructs-example.ts'), 'utf8'));
  const out = join(dir, 'constructs');
  mkdirSync(out);
  const cwd = process.cwd();
  try {
    process.chdir(out);
    jest.isolateModules(() => require('./constructs-example'));
  } finally {
    process.chdir(cwd);
  }
  const objects = parseAllDocuments(readFileSync(join(out, 'dist', 'vision.k8s.yaml'), 'utf8'))
    .map((d) => `${d.get('kind')} ${d.getIn(['metadata', 'name'])}`);
  expect(objects).toEqual([
    'Namespace inference',
    'Namespace nvidia-device-plugin', 'ConfigMap nvidia-device-plugin', 'ServiceAccount nvidia-device-plugin',
    'DaemonSet nvidia-device-plugin', 'NetworkPolicy nvidia-device-plugin',
    'ServiceAccount classifier', 'Deployment classifier', 'Service classifier', 'PodDisruptionBudget classifier',
    'NetworkPolicy classifier', 'ServiceMonitor classifier', 'PrometheusRule classifier-triton',
  ]);
});

/** The Markdown pages a reader follows: README.md and docs/*.md, not the generated API reference. */
const MARKDOWN = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

test.each(MARKDOWN)('%s: every ```text block is marked, so a test regenerates it', (page) => {
  expect(unmarkedTextBlocks(readFileSync(join(ROOT, page), 'utf8'))).toBe(0);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) => heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
const anchors = (file: string) => [...readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1]));

test.each(MARKDOWN)('%s: every relative link names a file, and a heading of it after #', (page) => {
  const file = join(ROOT, page);
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const broken = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1])
    .filter((link) => !/^[a-z]+:/.test(link))
    .filter((link) => {
      const [path, hash] = link.split('#');
      const target = path === '' ? file : resolve(dirname(file), path);
      if (!existsSync(target)) return true;
      return hash !== undefined && target.endsWith('.md') && !anchors(target).includes(hash);
    });
  expect(broken).toEqual([]);
});

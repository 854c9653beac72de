/**
 * Seeded single mutations of the example fleet descriptions (issue 19): wrong types, numeric and string edges, typo
 * keys beside and in place of a real key, removed keys, duplicates, broken references and contradictions, each with
 * the outcome it must have; and the valid variants that must synthesize. Deterministic for a seed: the same seed gives
 * the same cases in the same order, so `FUZZ_SEED=<seed> FUZZ_CASE=<id>` reproduces one case.
 */
import { FleetDescription } from 'triton-ops/fleet';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { SEARCH_FLEET } from '../../examples/search-ranking';
import { DEFAULT_FLEET } from '../../stacks/fleet';

/**
 * The default fleet with every optional key the examples leave out given a valid value (the Terraform state, the
 * provider, Pod Identity, the mesh, a managed node group's AWS settings, an existing bucket, a release on one shared
 * repository, ...), so that their keys are mutated too.
 */
const VISION_FULL: FleetDescription = {
  ...DEFAULT_FLEET,
  cluster: { ...DEFAULT_FLEET.cluster, kubernetesVersion: '1.35' },
  aws: { profile: 'ml', defaultTags: { team: 'ml' } },
  state: { bucket: 'acme-terraform-state', keyPrefix: 'vision', region: 'us-east-1' },
  modelAccess: 'pod-identity',
  // A bucket that exists (read with a data source), and the canary's versions on one model repository.
  modelBucket: { ...DEFAULT_FLEET.modelBucket!, existing: true },
  releases: Object.fromEntries(Object.entries(DEFAULT_FLEET.releases!).map(([name, release]) => [name, { ...release, sharedRepository: true }])),
  nodePools: Object.fromEntries(Object.entries(DEFAULT_FLEET.nodePools!).map(([name, pool]) => [name,
    { ...pool, capacityType: 'SPOT', amiType: 'BOTTLEROCKET_x86_64_NVIDIA', minSize: 2, maxSize: 12 }])),
  gateway: { ...DEFAULT_FLEET.gateway!, namespace: 'istio-system', name: 'vision-gateway' },
  mesh: { istiodNamespace: 'istio-system' },
  monitoring: { ...DEFAULT_FLEET.monitoring, namespace: 'monitoring', dashboardName: 'vision-gpus', scrape: true, alerts: true, dashboard: true },
};

/**
 * The descriptions the cases mutate, by label: the three examples, whose duplicates, broken references, contradictions
 * and controls are fuzzed too, and the default fleet with every optional key (`vision-full`), whose keys are.
 */
export const FUZZ_FLEETS: Readonly<Record<string, FleetDescription>> = Object.freeze({
  vision: DEFAULT_FLEET, search: SEARCH_FLEET, llm: LLM_FLEET, 'vision-full': VISION_FULL,
});
/** The labels of the examples themselves. */
const EXAMPLES = ['vision', 'search', 'llm'];

/** The seed when FUZZ_SEED is not set. */
export const DEFAULT_SEED = 19;

/** mulberry32: a small seeded PRNG giving floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type MutationClass = 'wrong-type' | 'numeric-edge' | 'string-edge' | 'typo-key-beside' | 'typo-key-in-place'
  | 'removed-key' | 'duplicate' | 'broken-reference' | 'contradiction' | 'rename-collision' | 'valid-control';

/** `refuse`: must be refused; `either`: may synthesize (then the output must be valid) or be refused; `accept`: must synthesize. */
export type Expectation = 'refuse' | 'either' | 'accept';

export interface FuzzCase {
  /** Position in the seed's case list: FUZZ_CASE. */
  readonly id: number;
  readonly fleet: string;
  readonly kind: MutationClass;
  /** The description path mutated, in the description's words (`servers.segmenter.autoscale.minReplicas`). */
  readonly path: string;
  /** The mutation, as a user would read it. */
  readonly change: string;
  readonly expect: Expectation;
  /** The key a typo mutation added, which the refusal must name. */
  readonly unknownKey?: string;
  /** The description path a rename-collision's refusal must name (`'servers.vision'`): the key the user wrote. */
  readonly namedAt?: string;
  /** The Terraform stacks are synthesized too (a seeded subset). */
  readonly terraform: boolean;
  /** The mutated description (a fresh copy each call). */
  build(): FleetDescription;
}

type Key = string | number;
type Path = readonly Key[];
type Candidate = Omit<FuzzCase, 'id' | 'terraform'>;

/** Objects whose keys are names the user chooses (servers, labels, parameters), not keys of the description's schema. */
const NAMED_KEYS = new Set([
  'servers', 'nodePools', 'releases', 'parameters', 'inputMap', 'outputMap', 'files', 'backendConfig', 'env', 'weights',
  'selector', 'prometheusLabels', 'defaultTags', 'labels', 'headers', 'matchLabels', 'objectives',
]);

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** A copy of plain objects and arrays; class instances (factories' values) are kept as they are. */
function copy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copy) as unknown as T;
  if (isPlain(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)])) as T;
  return value;
}

/** `servers.segmenter.models[0].inputs[0].name` */
export function showPath(path: Path): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
}

/** Renders a mutated value: strings quoted (long ones shortened), numbers as written, objects by shape. */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `'${value.slice(0, 12)}...' (${value.length} chars)` : `'${value}'`;
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.map(showValue).join(', ')}]`;
  if (isPlain(value)) return Object.keys(value).length === 0 ? '{}' : `{ ${Object.keys(value).join(', ')} }`;
  if (value === null || value === undefined || typeof value === 'boolean') return String(value);
  return `${(value as object).constructor.name} instance`;
}

function get(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<Key, unknown>)[key], root);
}

/** A copy of `fleet` with `edit` applied to the node at `path`'s parent (`parent[key]`). */
function editAt(fleet: FleetDescription, path: Path, edit: (parent: any, key: Key) => void): () => FleetDescription {
  return () => {
    const root = copy(fleet);
    edit(get(root, path.slice(0, -1)), path[path.length - 1]);
    return root;
  };
}

const setAt = (fleet: FleetDescription, path: Path, value: unknown) => editAt(fleet, path, (parent, key) => { parent[key] = copy(value); });

interface Node {
  readonly path: Path;
  readonly value: unknown;
  /** The key is a name the user chose (a server name), not a key of the schema. */
  readonly named: boolean;
}

/** Every node below the root, depth first in key order; class instances are leaves. */
function nodes(root: unknown): Node[] {
  const found: Node[] = [];
  const walk = (value: unknown, path: Path, named: boolean): void => {
    if (path.length > 0) found.push({ path, value, named });
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i], false));
    else if (isPlain(value)) {
      const namedChildren = path.length > 0 && NAMED_KEYS.has(String(path[path.length - 1]));
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k], namedChildren);
    }
  };
  walk(root, [], false);
  return found;
}

/** Inside a model configuration (free-form strings such as parameter values are allowed there). */
const inModel = (path: Path) => path.includes('models');

/** Keys whose value is one of a closed set of strings (a string-literal union): any other string is refused. */
const CLOSED_SET_KEYS = new Set([
  'instanceStore', 'weightsFrom', 'protocol', 'capacityType', 'amiType', 'provisioner', 'modelAccess', 'dataType', 'format', 'kind', 'dtype',
]);

/** Keys the description's types require (fleet-description.ts and the option types it extends): removing one is refused. */
const REQUIRED_KEYS: readonly RegExp[] = [
  /^(name|namespace|accountId|region|cluster|image|servers)$/,
  /^cluster\.name$/,
  /^nodePools\.[^.]+\.(instanceTypes|subnetIds)$/,
  /^modelBucket\.name$/,
  /^modelBucket\.lustre\.(storageCapacityGiB|subnetId|securityGroupIds)$/,
  /^gateway\.hosts$/,
  /^monitoring\.alertRouting\.receivers$/,
  /^releases\.[^.]+\.versions$/,
  /^releases\.[^.]+\.versions\[\d+\]\.(version|server)$/,
  /^releases\.[^.]+\.headerRoutes\[\d+\]\.(header|version)$/,
  /^servers\.[^.]+\.models$/,
  /^servers\.[^.]+\.autoscale\.(metric|maxReplicas)$/,
  /^servers\.[^.]+\.localRepository\.sizeGiB$/,
  /^servers\.[^.]+\.loadTest\.(model|sdkImage|results)$/,
  /^servers\.[^.]+\.loadTest\.(inputTokens|outputTokens)\.mean$/,
  /^servers\.[^.]+\.models\[\d+\]\.name$/,
  /^servers\.[^.]+\.models\[\d+\]\.(inputs|outputs)\[\d+\]\.(name|dataType|dims)$/,
];

/** Values of another type than `value`'s (a string is not a number, `'false'` is not a boolean, an object is not an array). */
function wrongTypes(value: unknown): unknown[] {
  if (typeof value === 'number') return [String(value), true, [value], null];
  if (typeof value === 'boolean') return [String(value), value ? 1 : 0, null];
  if (typeof value === 'string') return [42, true, [value], { value }];
  if (Array.isArray(value)) return [{}, value.length > 0 ? value[0] : 'x', 'x'];
  if (isPlain(value)) return [[], 'x', 7];
  // A factory's value (AutoscalingMetric, AlertReceiver, VersionPolicy, LoadSweep): a look-alike plain object is not it.
  return [{}, { ...(value as object) }, 'x'];
}

const NUMERIC_EDGES = [0, -1, 0.5, NaN, Infinity, -Infinity, 1e12, 2 ** 31];
const STRING_EDGES = ['', '   ', 'UPPER', 'a/b', 'x'.repeat(300)];

/**
 * A key at edit distance 1-2 from `key` that is none of `taken`: a letter dropped, two swapped, a case changed, a plural
 * added or dropped.
 */
function typo(key: string, taken: ReadonlySet<string>, rng: () => number): string {
  const at = (n: number) => Math.floor(rng() * n);
  const edits: Array<() => string> = [
    () => { const i = at(key.length); return key.slice(0, i) + key.slice(i + 1); },
    () => { const i = at(key.length - 1); return key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2); },
    () => { const i = at(key.length); const c = key[i]; const t = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase(); return key.slice(0, i) + t + key.slice(i + 1); },
    () => (key.endsWith('s') ? key.slice(0, -1) : `${key}s`),
  ];
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = edits[at(edits.length)]();
    if (candidate !== key && candidate !== '' && !taken.has(candidate)) return candidate;
  }
  return `${key}x`;
}

/** The generic mutations: one per node and class (a value drawn for each by the seed). */
function genericCandidates(label: string, fleet: FleetDescription, rng: () => number): Candidate[] {
  const out: Candidate[] = [];
  const pick = <T>(values: readonly T[]): T => values[Math.floor(rng() * values.length)];
  const add = (kind: MutationClass, path: Path, change: string, expect: Expectation, build: () => FleetDescription, unknownKey?: string) =>
    out.push({ fleet: label, kind, path: showPath(path), change, expect, build, unknownKey });
  for (const { path, value, named } of nodes(fleet)) {
    const key = path[path.length - 1];
    const parent = get(fleet, path.slice(0, -1));
    // A value of another type than the example's is refused: where a key takes two types (`mesh: false | {...}`), the
    // wrong types drawn are neither.
    for (const wrong of wrongTypes(value)) add('wrong-type', path, `set to ${showValue(wrong)}`, 'refuse', setAt(fleet, path, wrong));
    if (typeof value === 'number') {
      for (const edge of NUMERIC_EDGES) {
        add('numeric-edge', path, `set to ${showValue(edge)}`, Number.isFinite(edge) ? 'either' : 'refuse', setAt(fleet, path, edge));
      }
    }
    if (typeof value === 'string') {
      for (const edge of STRING_EDGES) {
        // A blank name, path, host or image is never meaningful (a parameter value of a model may be empty); a closed
        // set has none of the edges.
        const blank = edge.trim() === '' && !(named && inModel(path));
        const refused = blank || CLOSED_SET_KEYS.has(String(key));
        add('string-edge', path, `set to ${showValue(edge)}`, refused ? 'refuse' : 'either', setAt(fleet, path, edge));
      }
    }
    if (typeof key === 'string' && isPlain(parent) && !named) {
      const taken = new Set(Object.keys(parent));
      const beside = typo(key, taken, rng);
      add('typo-key-beside', path, `'${beside}' added beside '${key}'`, 'refuse',
        editAt(fleet, path, (p) => { p[beside] = copy(value); }), beside);
      const instead = typo(key, taken, rng);
      add('typo-key-in-place', path, `'${key}' renamed '${instead}'`, 'refuse', editAt(fleet, path, (p, k) => {
        p[instead] = p[k as string];
        delete p[k as string];
      }), instead);
    }
    if (typeof key === 'string' && isPlain(parent)) {
      const required = REQUIRED_KEYS.some((re) => re.test(showPath(path)));
      add('removed-key', path, `'${key}' removed`, required ? 'refuse' : 'either', editAt(fleet, path, (p, k) => { delete p[k as string]; }));
    }
    if (typeof key === 'number' && Array.isArray(parent)) {
      add('removed-key', path, `item ${key} removed`, 'either', editAt(fleet, path, (p, k) => { (p as unknown[]).splice(k as number, 1); }));
    }
    if (isPlain(value) && !named && !NAMED_KEYS.has(String(key))) {
      // A key no part of the description has, at a level that has keys.
      const unknown = pick(['enabled', 'tolerations', 'extra', 'replicaCount']);
      if (!(unknown in value)) {
        add('typo-key-beside', [...path, unknown], `unknown key '${unknown}' added`, 'refuse',
          editAt(fleet, [...path, unknown], (p, k) => { p[k] = true; }), unknown);
      }
    }
  }
  return out;
}

/** The fleet-specific mutations: duplicates, broken references and contradictions. */
function structuralCandidates(label: string, fleet: FleetDescription): Candidate[] {
  const out: Candidate[] = [];
  const add = (kind: MutationClass, path: Path, change: string, build: (f: any) => void, expect: Expectation = 'refuse') =>
    out.push({ fleet: label, kind, path: showPath(path), change, expect, build: () => { const f = copy(fleet) as any; build(f); return f; } });
  const servers = Object.keys(fleet.servers);
  const releases = Object.entries(fleet.releases ?? {});
  const pools = Object.keys(fleet.nodePools ?? {});

  // Duplicates: a release named like a server, servers and pools one name after normalisation, repeated entries.
  for (const [name, release] of releases) {
    const server = release.versions[0].server;
    add('duplicate', ['releases', name], `release renamed '${server}', the name of a server`, (f) => {
      f.releases[server] = f.releases[name];
      delete f.releases[name];
    });
    add('duplicate', ['releases', name, 'versions', 1, 'version'], `version name '${release.versions[0].version}' twice`, (f) => {
      f.releases[name].versions[1].version = release.versions[0].version;
    });
    add('duplicate', ['releases', name, 'versions', 1, 'server'], `server '${server}' in both versions`, (f) => {
      f.releases[name].versions[1].server = server;
    });
  }
  for (const server of servers) {
    for (const twin of [server.toUpperCase(), `${server} `, server.replace(/-/g, '_'), `${server}.`]) {
      if (twin !== server) add('duplicate', ['servers', twin], `a copy of server '${server}' named '${twin}'`, (f) => { f.servers[twin] = f.servers[server]; });
    }
    const models = fleet.servers[server].models;
    if (Array.isArray(models) && models.length > 0) {
      add('duplicate', ['servers', server, 'models'], `model '${models[0].name}' twice`, (f) => { f.servers[server].models.push(f.servers[server].models[0]); });
    }
  }
  for (const pool of pools) {
    add('duplicate', ['nodePools', pool.toUpperCase()], `a copy of node pool '${pool}' named '${pool.toUpperCase()}', which no server uses`, (f) => {
      f.nodePools[pool.toUpperCase()] = f.nodePools[pool];
    });
  }
  const routed = servers.filter((s) => fleet.servers[s].route?.hosts?.length);
  if (routed.length >= 2) {
    const [a, b] = routed;
    add('duplicate', ['servers', b, 'route', 'hosts'], `host of '${a}' routed to '${b}' too`, (f) => { f.servers[b].route.hosts = [...fleet.servers[a].route!.hosts!]; });
  }

  // Broken references: a node pool, a server, a model, a version, a host that the description does not have.
  for (const server of servers) {
    add('broken-reference', ['servers', server, 'nodePool'], `set to 'gpu-missing'`, (f) => { f.servers[server].nodePool = 'gpu-missing'; });
    if (fleet.servers[server].loadTest) {
      add('broken-reference', ['servers', server, 'loadTest', 'model'], `set to 'missing-model'`, (f) => { f.servers[server].loadTest.model = 'missing-model'; });
    }
    if (fleet.servers[server].route?.exposed) {
      add('broken-reference', ['servers', server, 'route', 'hosts'], `set to ['other.example.org'], a host the gateway does not accept`, (f) => {
        f.servers[server].route.hosts = ['other.example.org'];
      });
    }
  }
  for (const [name, release] of releases) {
    add('broken-reference', ['releases', name, 'versions', 0, 'server'], `set to 'missing-server'`, (f) => { f.releases[name].versions[0].server = 'missing-server'; });
    if (release.headerRoutes?.length) {
      add('broken-reference', ['releases', name, 'headerRoutes', 0, 'version'], `set to 'v9'`, (f) => { f.releases[name].headerRoutes[0].version = 'v9'; });
    }
    if (release.exposed) {
      add('broken-reference', ['releases', name, 'hosts'], `set to ['other.example.org'], a host the gateway does not accept`, (f) => {
        f.releases[name].hosts = ['other.example.org'];
      });
    }
  }

  // Contradictions: two keys that cannot both hold.
  for (const server of servers) {
    const autoscale = fleet.servers[server].autoscale;
    if (autoscale) {
      add('contradiction', ['servers', server, 'autoscale', 'minReplicas'], `minReplicas ${(autoscale.maxReplicas ?? 0) + 1} above maxReplicas ${autoscale.maxReplicas}`,
        (f) => { f.servers[server].autoscale.minReplicas = (autoscale.maxReplicas ?? 0) + 1; });
      add('contradiction', ['servers', server, 'replicas'], `replicas 3 beside autoscale`, (f) => { f.servers[server].replicas = 3; });
    }
    // A negative priority is valid on a pool whose backend exports the saturation signals (output-checks.ts SIGNED_FIELDS),
    // and refused on a vLLM pool: its metrics are always stale to the picker, which would shed every such request.
    if (fleet.servers[server].route?.inferencePool && fleet.servers[server].models.some((m) => m.backend === 'vllm')) {
      add('contradiction', ['servers', server, 'route', 'inferencePool', 'objectives'], `a negative priority on a vLLM pool`, (f) => {
        f.servers[server].route.inferencePool.objectives = { batch: { priority: -1 } };
      });
    }
    if ((fleet.servers[server].gpus ?? 0) > 0) {
      add('contradiction', ['servers', server, 'gpus'], `set to 16, more GPUs than an instance of its pool has`, (f) => { f.servers[server].gpus = 16; });
    }
    if (fleet.servers[server].weightsFrom === 'lustre') {
      add('contradiction', ['servers', server, 'localRepository'], `localRepository with weightsFrom 'lustre'`, (f) => { f.servers[server].localRepository = { sizeGiB: 40 }; });
      add('contradiction', ['servers', server, 'repositoryClaim'], `repositoryClaim with weightsFrom 'lustre'`, (f) => { f.servers[server].repositoryClaim = 'models'; });
    } else if (!fleet.modelBucket?.lustre) {
      add('contradiction', ['servers', server, 'weightsFrom'], `weightsFrom 'lustre' without modelBucket.lustre`, (f) => { f.servers[server].weightsFrom = 'lustre'; });
    }
  }
  if (fleet.gateway && (releases.some(([, r]) => r.exposed) || servers.some((s) => fleet.servers[s].route?.exposed))) {
    add('contradiction', ['gateway'], `removed while routes are exposed`, (f) => { delete f.gateway; });
  }
  if (releases.length > 0 || fleet.gateway) add('contradiction', ['mesh'], `set to false with releases or a gateway`, (f) => { f.mesh = false; });
  if (fleet.monitoring?.alertRouting) {
    add('contradiction', ['monitoring', 'alerts'], `set to false with alertRouting`, (f) => { f.monitoring.alerts = false; });
  }
  if (fleet.modelBucket) add('contradiction', ['modelBucket'], `removed while servers read the bucket`, (f) => { delete f.modelBucket; });
  if (fleet.modelBucket?.lustre) {
    add('contradiction', ['modelBucket', 'kmsKeyArn'], `a KMS key with lustre`, (f) => {
      f.modelBucket.kmsKeyArn = 'arn:aws:kms:us-west-2:123456789012:key/0f1e2d3c-4b5a-6000-0000-000000000001';
    });
  }
  for (const pool of pools) {
    add('contradiction', ['nodePools', pool, 'minSize'], `minSize 5 above maxSize 2`, (f) => { f.nodePools[pool].minSize = 5; f.nodePools[pool].maxSize = 2; });
  }
  add('contradiction', ['cluster', 'kubernetesVersion'], `set to '1.10', a version EKS does not run`, (f) => { f.cluster.kubernetesVersion = '1.10'; });
  add('contradiction', ['modelBucket', 'prefix'], `set to '${fleet.name}/', which makes an empty key segment`, (f) => {
    if (f.modelBucket) f.modelBucket.prefix = `${fleet.name}/`;
  }, fleet.modelBucket ? 'either' : 'refuse');
  return out;
}

/** `fleet` with server `from` renamed `to`, and every reference to it (release versions) following it. */
function renameServer(f: any, from: string, to: string): void {
  f.servers = Object.fromEntries(Object.entries(f.servers).map(([k, v]) => [k === from ? to : k, v]));
  for (const r of Object.values<any>(f.releases ?? {})) for (const v of r.versions) if (v.server === from) v.server = to;
}

/** `fleet` with node pool `from` renamed `to`, and every server's nodePool following it. */
function renamePool(f: any, from: string, to: string): void {
  f.nodePools = Object.fromEntries(Object.entries(f.nodePools).map(([k, v]) => [k === from ? to : k, v]));
  for (const s of Object.values<any>(f.servers)) if (s.nodePool === from) s.nodePool = to;
}

/**
 * A named thing renamed into the name of another thing of its construct-id scope or of its Kubernetes kind and
 * namespace (lib/fleet/plan-names.ts): a server into the fleet's name (the gateway's by default) or a release's, a
 * release into the gateway's, a server into a pooled server's endpoint picker, the gateway into a server, a node pool into
 * a fixed id of the infra stack or a reader role's, a load test into another server, the dashboard into the adapter
 * rules, the fleet into the device plugin's namespace. Each must be refused at the key the rename wrote (`namedAt`).
 */
function collisionCandidates(label: string, fleet: FleetDescription): Candidate[] {
  const out: Candidate[] = [];
  const add = (path: Path, change: string, build: (f: any) => void, namedAt: Path = path) => out.push({
    fleet: label, kind: 'rename-collision', path: showPath(path), change, expect: 'refuse', namedAt: showPath(namedAt),
    build: () => { const f = copy(fleet) as any; build(f); return f; },
  });
  const servers = Object.keys(fleet.servers);
  const releases = Object.keys(fleet.releases ?? {});
  const [first, second] = servers;
  if (fleet.gateway !== undefined && fleet.gateway.name === undefined) {
    add(['servers', fleet.name], `server '${first}' renamed '${fleet.name}', the fleet's name (the gateway's by default)`, (f) => renameServer(f, first, fleet.name));
    if (releases.length > 0) {
      add(['releases', fleet.name], `release '${releases[0]}' renamed '${fleet.name}', the gateway's name`, (f) => {
        f.releases = Object.fromEntries(Object.entries(f.releases).map(([k, v]) => [k === releases[0] ? fleet.name : k, v]));
      });
    }
  }
  if (fleet.gateway !== undefined) add(['gateway', 'name'], `set to '${first}', a server's name`, (f) => { f.gateway.name = first; });
  const unreleased = releases.length === 0 ? undefined : servers.find((s) => !fleet.releases![releases[0]].versions.some((v) => v.server === s));
  if (unreleased !== undefined) {
    // Refused by the release's own check, at the release.
    add(['servers', releases[0]], `server '${unreleased}' renamed '${releases[0]}', a release's name`, (f) => renameServer(f, unreleased, releases[0]), ['releases', releases[0]]);
  }
  const pooled = servers.find((s) => fleet.servers[s].route?.inferencePool !== undefined);
  const other = servers.find((s) => s !== pooled);
  if (pooled !== undefined && other !== undefined) {
    add(['servers', `${pooled}-epp`], `server '${other}' renamed '${pooled}-epp', the endpoint picker of '${pooled}'`, (f) => renameServer(f, other, `${pooled}-epp`));
  }
  const pool = Object.keys(fleet.nodePools ?? {})[0];
  if (pool !== undefined) {
    for (const id of ['aws', 'Cluster', ...(fleet.modelBucket ? ['Models'] : [])]) {
      add(['nodePools', id], `node pool '${pool}' renamed '${id}', a construct id of the infra stack`, (f) => renamePool(f, pool, id));
    }
    const reader = servers.find((s) => fleet.modelBucket !== undefined && fleet.servers[s].repositoryClaim === undefined && fleet.servers[s].weightsFrom !== 'lustre');
    if (reader !== undefined) add(['nodePools', `${reader}-models`], `node pool '${pool}' renamed '${reader}-models', the id of a reader role`, (f) => renamePool(f, pool, `${reader}-models`));
    add(['namespace'], `set to 'nvidia-device-plugin', the device plugin's namespace`, (f) => { f.namespace = 'nvidia-device-plugin'; });
  }
  const tested = servers.find((s) => fleet.servers[s].loadTest !== undefined);
  if (tested !== undefined && second !== undefined) {
    const target = tested === first ? second : first;
    // Refused by the load tests' own check, at the load test.
    add(['servers', tested, 'loadTest', 'name'], `set to '${target}', another server's name`, (f) => { f.servers[tested].loadTest.name = target; });
  // Only prometheus-adapter (engine 'hpa', no longer the default) writes the adapter rules' ConfigMap.
  }
  if (servers.some((s) => fleet.servers[s].autoscale !== undefined && fleet.servers[s].autoscale!.engine === 'hpa')) {
    add(['monitoring', 'dashboardName'], `set to 'triton-ops-adapter-rules', the adapter rules' ConfigMap`, (f) => {
      f.monitoring = { ...f.monitoring, dashboardName: 'triton-ops-adapter-rules' };
    });
  }
  return out;
}

/** Valid variants of each example: they must synthesize (the platform accepts them). */
export function validControls(): Candidate[] {
  const out: Candidate[] = [];
  out.push({ fleet: 'vision-full', kind: 'valid-control', path: '', change: 'unmutated', expect: 'accept', build: () => copy(VISION_FULL) });
  for (const label of EXAMPLES) {
    const fleet = FUZZ_FLEETS[label];
    const add = (path: Path, change: string, build: (f: any) => void) =>
      out.push({ fleet: label, kind: 'valid-control', path: showPath(path), change, expect: 'accept', build: () => { const f = copy(fleet) as any; build(f); return f; } });
    add([], 'unmutated', () => undefined);
    add(['cluster', 'kubernetesVersion'], `set to '1.35'`, (f) => { f.cluster.kubernetesVersion = '1.35'; });
    add(['callers'], 'removed', (f) => { delete f.callers; });
    add(['modelBucket', 'prefix'], `set to 'team/${fleet.name}' (nested, no trailing slash)`, (f) => { f.modelBucket.prefix = `team/${fleet.name}`; });
    for (const [server, description] of Object.entries(fleet.servers)) {
      const autoscale = description.autoscale;
      if (autoscale) {
        add(['servers', server, 'autoscale', 'maxReplicas'], `maxReplicas equal to minReplicas (${autoscale.minReplicas})`,
          (f) => { f.servers[server].autoscale.maxReplicas = autoscale.minReplicas; });
      }
      if (description.loadTest) add(['servers', server, 'loadTest'], 'removed', (f) => { delete f.servers[server].loadTest; });
    }
    if (fleet.monitoring) add(['monitoring'], 'removed', (f) => { delete f.monitoring; });
    // Optional keys the examples leave out, given valid values: a strict validation must know them.
    add(['modelAccess'], `set to 'pod-identity'`, (f) => { f.modelAccess = 'pod-identity'; });
    add(['state'], `set to { bucket: 'acme-terraform-state', region: 'us-east-1' }`, (f) => { f.state = { bucket: 'acme-terraform-state', region: 'us-east-1' }; });
    add(['aws'], `set to { profile: 'ml', defaultTags: { team: 'ml' } }`, (f) => { f.aws = { profile: 'ml', defaultTags: { team: 'ml' } }; });
    add(['mesh'], `set to { istiodNamespace: 'istio-system' }`, (f) => { f.mesh = { istiodNamespace: 'istio-system' }; });
    add(['monitoring', 'dashboardName'], `set to '${fleet.name}-gpus'`, (f) => { f.monitoring = { ...f.monitoring, dashboardName: `${fleet.name}-gpus` }; });
    if (fleet.gateway) add(['gateway', 'namespace'], `set to 'istio-system'`, (f) => { f.gateway.namespace = 'istio-system'; });
  }
  return out;
}

/** Shares of the cases that synthesize the Terraform stacks too (about 5 times slower than the chart alone). */
export interface TerraformShare {
  /** Of the mutations of the description's own keys (most are read by both sides). */
  readonly description: number;
  /** Of the mutations inside model configurations (the Terraform side reads little of them). */
  readonly models: number;
}

/**
 * The cases of `seed`: about `count` mutations drawn evenly over fleet x class x area (the description's own keys and
 * its model configurations), every structural mutation, every rename into another name, then every valid control. The structural mutations, the
 * controls and a seeded share of the others also synthesize the Terraform stacks.
 */
export function fuzzCases(seed: number, count: number, share: TerraformShare): FuzzCase[] {
  const rng = mulberry32(seed);
  const groups = new Map<string, Candidate[]>();
  const structural: Candidate[] = [];
  const collisions: Candidate[] = [];
  for (const [label, fleet] of Object.entries(FUZZ_FLEETS)) {
    for (const c of genericCandidates(label, fleet, rng)) {
      const group = `${c.fleet}/${c.kind}/${c.path.includes('models') ? 'models' : 'description'}`;
      groups.set(group, [...(groups.get(group) ?? []), c]);
    }
    if (EXAMPLES.includes(label)) structural.push(...structuralCandidates(label, fleet));
    // Besides the drawn ones, not instead of them.
    if (EXAMPLES.includes(label)) collisions.push(...collisionCandidates(label, fleet));
  }
  const generic = Math.max(0, count - structural.length);
  const perGroup = Math.ceil(generic / groups.size);
  const drawn: Candidate[] = [];
  for (const [, candidates] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    // A seeded partial Fisher-Yates shuffle: the first perGroup of the group.
    const pool = [...candidates];
    for (let i = 0; i < Math.min(perGroup, pool.length); i++) {
      const j = i + Math.floor(rng() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j], pool[i]];
      drawn.push(pool[i]);
    }
  }
  const withTerraform = (c: Candidate) => c.kind === 'duplicate' || c.kind === 'broken-reference' || c.kind === 'contradiction' || c.kind === 'rename-collision'
    || c.kind === 'valid-control' || rng() < (c.path.includes('models') ? share.models : share.description);
  return [...drawn, ...structural, ...collisions, ...validControls()].map((c, id) => ({ ...c, id, terraform: withTerraform(c) }));
}

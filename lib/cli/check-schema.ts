/**
 * Each Kubernetes object against the JSON schema of its apiVersion/kind (kubernetes-models and the
 * @kubernetes-models packages of the custom resources triton-ops writes), then the structural rules a schema cannot
 * express. The schema packages are ESM-only optional peer dependencies of triton-ops, needed only by
 * `triton-ops check`: they are loaded with `import()`, and a missing one skips the schema check of the objects it
 * covers (the structural rules still run) with the command that installs it. Kinds no package covers (LeaderWorkerSet,
 * InferencePool, InferenceObjective, the Gateway API Gateway and HTTPRoute)
 * are validated against a schema vendored in this package with kubernetes-models' validator (check-vendored-schemas.ts).
 * The same validator run tells the fields no schema declares, which kubectl refuses (check-unknown-fields.ts).
 */
import { LWS_LABEL_PREFIX } from '../private/leader-worker-set-labels';
import { fieldReads, PRESERVED_FIELDS, unknownFieldMessage } from './check-unknown-fields';
import { vendoredModel, vendoredSchemaFile } from './check-vendored-schemas';

/** API group -> package holding its schemas; a model lives at `${package}/${apiVersion}/${kind}`. */
const SCHEMA_PACKAGES: Readonly<Record<string, string>> = {
  'networking.istio.io': '@kubernetes-models/istio',
  'security.istio.io': '@kubernetes-models/istio',
  'telemetry.istio.io': '@kubernetes-models/istio',
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'keda.sh': '@kubernetes-models/keda',
  'karpenter.sh': '@kubernetes-models/karpenter',
  'karpenter.k8s.aws': '@kubernetes-models/karpenter',
};
/**
 * Groups not listed fall back to kubernetes-models (every built-in group, and the kinds of VENDORED_SCHEMAS, validated
 * with its validator); any other CRD group there has no schema: a failure.
 */
const DEFAULT_SCHEMA_PACKAGE = 'kubernetes-models';

/** The schema packages with their ranges: optional peer dependencies, listed with cdktf's in lib/private/optional-peers.ts. */
export { CHECK_PEERS } from '../private/optional-peers';

/** Kinds without a namespace; every other kind must name a namespace other than `default` (CHECKLIST S11). */
const CLUSTER_SCOPED: ReadonlySet<string> = new Set([
  'Namespace', 'Node', 'PersistentVolume', 'PriorityClass', 'ClusterRole', 'ClusterRoleBinding', 'StorageClass',
  'CSIDriver', 'CSINode', 'VolumeAttachment', 'RuntimeClass', 'IngressClass', 'CustomResourceDefinition',
  'APIService', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding', 'CertificateSigningRequest', 'FlowSchema', 'PriorityLevelConfiguration',
  'DeviceClass', 'ResourceSlice', 'IPAddress', 'ServiceCIDR', 'ClusterTriggerAuthentication', 'NodePool', 'EC2NodeClass',
]);
/** Workloads whose selector must pick their own pods (CHECKLIST R05); the API server only checks this on create. */
const POD_TEMPLATE_KINDS: ReadonlySet<string> = new Set(['Deployment', 'DaemonSet', 'StatefulSet', 'ReplicaSet']);

/** jq-style path (`.spec.containers[0]["app.kubernetes.io/name"]`) so a problem can be pasted into jq/yq. */
const fmtPath = (segs: readonly string[]): string =>
  segs.map((s) => (/^\d+$/.test(s) ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join('') || '.';
const pointerToSegs = (p: string) => p.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/** The API group of `apiVersion`; '' for the core group (`v1`). */
const apiGroup = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/**
 * A model class of the schema packages (or a vendored one): its `validate()` validates `this`, the object's fields
 * copied onto the instance (tommy351/kubernetes-models-ts:core/base/src/model.ts@f819b64 line 92,
 * `runValidateFunc(fn, this)`), so it can be called on any object.
 */
interface Model { apiVersion?: string; kind?: string; prototype: { validate(this: object): void } }
type Loaded = { model: Model } | { missing: string } | { none: true };

/** Loads schema models through `import()`, once per apiVersion/kind. */
export class SchemaLoader {
  private readonly models = new Map<string, Promise<Loaded>>();

  /** `importer` is the module loader (tests replace it); the default is Node's `import()` from this file. */
  public constructor(private readonly importer: (specifier: string) => Promise<Record<string, unknown>> = (s) => import(s)) {}

  public static packageFor(apiVersion: string): string {
    return SCHEMA_PACKAGES[apiGroup(apiVersion)] ?? DEFAULT_SCHEMA_PACKAGE;
  }

  public load(apiVersion: string, kind: string): Promise<Loaded> {
    const key = `${apiVersion} ${kind}`;
    let found = this.models.get(key);
    if (found === undefined) {
      found = this.find(apiVersion, kind);
      this.models.set(key, found);
    }
    return found;
  }

  private async find(apiVersion: string, kind: string): Promise<Loaded> {
    const pkg = SchemaLoader.packageFor(apiVersion);
    // The shape check keeps a malformed apiVersion/kind from becoming an arbitrary module path.
    if (!/^([a-z0-9.-]+\/)?v\d+[a-z0-9]*$/.test(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) return { none: true };
    const vendored = vendoredSchemaFile(apiVersion, kind);
    try {
      if (vendored !== undefined) return { model: await vendoredModel(apiVersion, kind, vendored, this.importer) };
      const model = (await this.importer(`${pkg}/${apiVersion}/${kind}`))[kind] as Model | undefined;
      // The apiVersion/kind check rejects helper types (e.g. kind: DeploymentSpec).
      return model?.apiVersion === apiVersion && model?.kind === kind ? { model } : { none: true };
    } catch (e) {
      const { code, message } = e as NodeJS.ErrnoException;
      if (code === 'ERR_MODULE_NOT_FOUND' && String(message).includes(`Cannot find package '${pkg}'`)) return { missing: pkg };
      // A vendored schema's modules of kubernetes-models must exist: only a kind of a package can have no schema.
      if (vendored === undefined && (code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED')) return { none: true };
      throw e;
    }
  }
}

/** cdk8s emits `null` for undefined values; schemas allow null, kubectl then drops or rejects the field. */
function findNulls(value: unknown, segs: string[] = [], out: string[] = []): string[] {
  if (value === null) out.push(`${fmtPath(segs)} is null`);
  else if (typeof value === 'object') for (const [k, v] of Object.entries(value as object)) findNulls(v, [...segs, k], out);
  return out;
}

/**
 * Alertmanager routing: every route names a declared receiver (the operator rejects the whole config otherwise),
 * and no receiver carries a credential inline: a webhook URL (which often holds a token) only as urlSecret.
 */
function alertmanagerConfigProblems(spec: any): string[] {
  const problems: string[] = [];
  const names = new Set((spec.receivers ?? []).map((r: any) => r.name));
  const walk = (route: any, segs: string[]) => {
    if (route?.receiver !== undefined && !names.has(route.receiver)) {
      problems.push(`${fmtPath(segs)}.receiver: '${route.receiver}' is not a receiver of spec.receivers`);
    }
    (route?.routes ?? []).forEach((r: any, i: number) => walk(r, [...segs, 'routes', String(i)]));
  };
  if (spec.route) walk(spec.route, ['spec', 'route']);
  (spec.receivers ?? []).forEach((r: any, i: number) => (r.webhookConfigs ?? []).forEach((w: any, j: number) => {
    if (w.url !== undefined) problems.push(`.spec.receivers[${i}].webhookConfigs[${j}].url is inline; reference a Secret with urlSecret`);
  }));
  return problems;
}

/**
 * A LeaderWorkerSet's templates leave LeaderWorkerSet's own labels (`leaderworkerset.sigs.k8s.io/...`) to it: it sets
 * them on each pod, and its pod webhook keeps a group index or key it finds, so one given by a template would put
 * every pod in the same group.
 */
function leaderWorkerSetProblems(spec: any): string[] {
  const problems: string[] = [];
  for (const template of ['leaderTemplate', 'workerTemplate']) {
    for (const key of Object.keys(spec.leaderWorkerTemplate?.[template]?.metadata?.labels ?? {})) {
      if (!key.startsWith(LWS_LABEL_PREFIX)) continue;
      problems.push(`${fmtPath(['spec', 'leaderWorkerTemplate', template, 'metadata', 'labels', key])} is a label LeaderWorkerSet sets `
        + 'on each pod itself; remove it from the template');
    }
  }
  return problems;
}

interface ObjectResult {
  readonly problems: string[];
  /** The schema package that is not installed (the schema check of this object was skipped). */
  readonly missingPackage?: string;
}

/** The schema and structural problems of one object. */
export async function objectProblems(obj: unknown, loader: SchemaLoader): Promise<ObjectResult> {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return { problems: ['document is not a mapping'] };
  const { apiVersion, kind, metadata, spec } = obj as { apiVersion?: unknown; kind?: unknown; metadata?: any; spec?: any };
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    return { problems: ['not a Kubernetes object: apiVersion and kind must be strings'] };
  }
  const problems: string[] = [];
  let missingPackage: string | undefined;
  const loaded = await loader.load(apiVersion, kind);
  if ('missing' in loaded) {
    missingPackage = loaded.missing;
  } else if ('none' in loaded) {
    problems.push(`no schema for ${apiVersion} ${kind} in ${SchemaLoader.packageFor(apiVersion)}`);
  } else {
    const fields = fieldReads(obj);
    try {
      loaded.model.prototype.validate.call(fields.view);
    } catch (e) {
      const errors = (e as { errors?: Array<{ instancePath: string; message?: string }> }).errors;
      if (!Array.isArray(errors)) throw e;
      for (const err of errors) problems.push(`${fmtPath(pointerToSegs(err.instancePath))}: ${err.message}`);
    }
    problems.push(...fields.unknown(PRESERVED_FIELDS[apiGroup(apiVersion)] ?? []).map(unknownFieldMessage));
  }
  if (!metadata?.name) problems.push('metadata.name is missing');
  if (!CLUSTER_SCOPED.has(kind)) {
    if (!metadata?.namespace) problems.push('metadata.namespace is missing (namespaced kinds must set one)');
    else if (metadata.namespace === 'default') problems.push("metadata.namespace is 'default'; use a dedicated namespace");
  }
  if (POD_TEMPLATE_KINDS.has(kind)) {
    const match: Record<string, string> = spec?.selector?.matchLabels ?? {};
    const labels: Record<string, string> = spec?.template?.metadata?.labels ?? {};
    if (!Object.keys(match).length && !spec?.selector?.matchExpressions?.length) problems.push('spec.selector is empty');
    for (const [k, v] of Object.entries(match)) {
      if (labels[k] !== v) problems.push(`spec.selector.matchLabels ${k}=${v} is not a pod template label (template has ${k}=${labels[k] ?? '<unset>'})`);
    }
  }
  if (kind === 'LeaderWorkerSet') problems.push(...leaderWorkerSetProblems(spec ?? {}));
  if (kind === 'AlertmanagerConfig') problems.push(...alertmanagerConfigProblems(spec ?? {}));
  problems.push(...findNulls(obj));
  return { problems: [...new Set(problems)], missingPackage };
}

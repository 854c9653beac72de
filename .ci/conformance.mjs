#!/usr/bin/env node
// Conformance check CI runs on synthesized output: `node .ci/conformance.mjs [dir]` (default `dist`).
// Every Kubernetes object in every *.yaml/*.yml under dir is validated against the JSON schema of its
// apiVersion/kind (kubernetes-models, ESM-only), then against structural rules schemas cannot express.
// Exits 1 on any problem, and when no object was found at all (an empty dist means synth did not run).
import { readdir, readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { parseAllDocuments } from 'yaml';

// API group -> package holding its schemas; a model lives at `${package}/${apiVersion}/${kind}`.
// Groups not listed fall back to kubernetes-models (it covers every built-in group); an apiVersion/kind with no
// module there is a failure, so a custom resource is never silently passed. Supporting a CRD package is one line:
const SCHEMA_PACKAGES = {
  'networking.istio.io': '@kubernetes-models/istio',
  'security.istio.io': '@kubernetes-models/istio',
  'telemetry.istio.io': '@kubernetes-models/istio',
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'keda.sh': '@kubernetes-models/keda',
  'karpenter.sh': '@kubernetes-models/karpenter',
  'karpenter.k8s.aws': '@kubernetes-models/karpenter',
};
const DEFAULT_PACKAGE = 'kubernetes-models';

// Kinds without a namespace; every other kind must name a namespace other than `default` (CHECKLIST S11).
const CLUSTER_SCOPED = new Set([
  'Namespace', 'Node', 'PersistentVolume', 'PriorityClass', 'ClusterRole', 'ClusterRoleBinding', 'StorageClass',
  'CSIDriver', 'CSINode', 'VolumeAttachment', 'RuntimeClass', 'IngressClass', 'CustomResourceDefinition',
  'APIService', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding', 'CertificateSigningRequest', 'FlowSchema', 'PriorityLevelConfiguration',
  'DeviceClass', 'ResourceSlice', 'IPAddress', 'ServiceCIDR', 'ClusterTriggerAuthentication', 'NodePool', 'EC2NodeClass',
]);
// Workloads whose selector must pick their own pods (CHECKLIST R05); the API server only checks this on create.
const POD_TEMPLATE_KINDS = new Set(['Deployment', 'DaemonSet', 'StatefulSet', 'ReplicaSet']);

// The manifest folder holds Kubernetes objects only: the promtool files and the config.pbtxt tree are in artifacts/.
const dir = process.argv[2] ?? 'dist';

// jq-style path (`.spec.containers[0]["app.kubernetes.io/name"]`) so a problem can be pasted into jq/yq.
const fmtPath = (segs) =>
  segs.map((s) => (/^\d+$/.test(s) ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`))
    .join('') || '.';
const pointerToSegs = (p) => p.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

const models = new Map(); // `${apiVersion} ${kind}` -> Promise<model class | undefined>
function modelFor(apiVersion, kind) {
  const key = `${apiVersion} ${kind}`;
  if (!models.has(key)) {
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
    const pkg = SCHEMA_PACKAGES[group] ?? DEFAULT_PACKAGE;
    // The shape check keeps a malformed apiVersion/kind from becoming an arbitrary module path.
    const ok = /^([a-z0-9.-]+\/)?v\d+[a-z0-9]*$/.test(apiVersion) && /^[A-Z][A-Za-z0-9]*$/.test(kind);
    models.set(key, !ok ? Promise.resolve(undefined) : import(`${pkg}/${apiVersion}/${kind}`)
      // Not found = no schema. The apiVersion/kind check rejects helper types (e.g. kind: DeploymentSpec).
      .then((m) => (m[kind]?.apiVersion === apiVersion && m[kind]?.kind === kind ? m[kind] : undefined))
      .catch((e) => {
        if (['ERR_MODULE_NOT_FOUND', 'ERR_PACKAGE_PATH_NOT_EXPORTED'].includes(e.code)) return undefined;
        throw e;
      }));
  }
  return models.get(key);
}

// cdk8s emits `null` for undefined values (e.g. a JSON patch with a bare number); schemas allow null, kubectl
// then drops or rejects the field, so the output would not say what the construct meant.
function findNulls(value, segs = [], out = []) {
  if (value === null) out.push(`${fmtPath(segs)} is null`);
  else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) findNulls(v, [...segs, k], out);
  return out;
}

// Alertmanager routing (TritonAlertRouting): every route names a declared receiver (the operator rejects the whole
// config otherwise, and the schema cannot say so), and no receiver carries a credential inline: a webhook URL
// (which often holds a token) only as urlSecret.
function alertmanagerConfigProblems(spec) {
  const problems = [];
  const names = new Set((spec.receivers ?? []).map((r) => r.name));
  const walk = (route, segs) => {
    if (route?.receiver !== undefined && !names.has(route.receiver)) {
      problems.push(`${fmtPath(segs)}.receiver: '${route.receiver}' is not a receiver of spec.receivers`);
    }
    (route?.routes ?? []).forEach((r, i) => walk(r, [...segs, 'routes', String(i)]));
  };
  if (spec.route) walk(spec.route, ['spec', 'route']);
  (spec.receivers ?? []).forEach((r, i) => (r.webhookConfigs ?? []).forEach((w, j) => {
    if (w.url !== undefined) problems.push(`.spec.receivers[${i}].webhookConfigs[${j}].url is inline; reference a Secret with urlSecret`);
  }));
  return problems;
}

async function check(obj) {
  if (typeof obj !== 'object' || Array.isArray(obj)) return ['document is not a mapping'];
  const { apiVersion, kind, metadata = {}, spec } = obj;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return ['not a Kubernetes object: apiVersion and kind must be strings'];
  const problems = [];
  const Model = await modelFor(apiVersion, kind);
  if (!Model) {
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
    const hint = !SCHEMA_PACKAGES[group] && group.includes('.') && !group.endsWith('.k8s.io'); // a CRD group
    problems.push(`no schema for ${apiVersion} ${kind} in ${SCHEMA_PACKAGES[group] ?? DEFAULT_PACKAGE}` + (!hint ? ''
      : `; map API group '${group}' to its @kubernetes-models package in SCHEMA_PACKAGES (.ci/conformance.mjs)`));
  } else {
    try {
      new Model(obj).validate();
    } catch (e) {
      if (!Array.isArray(e.errors)) throw e;
      for (const err of e.errors) problems.push(`${fmtPath(pointerToSegs(err.instancePath))}: ${err.message}`);
    }
  }
  if (!metadata?.name) problems.push('metadata.name is missing');
  if (!CLUSTER_SCOPED.has(kind)) {
    if (!metadata?.namespace) problems.push('metadata.namespace is missing (namespaced kinds must set one)');
    else if (metadata.namespace === 'default') problems.push("metadata.namespace is 'default'; use a dedicated namespace");
  }
  if (POD_TEMPLATE_KINDS.has(kind)) {
    const match = spec?.selector?.matchLabels ?? {};
    const labels = spec?.template?.metadata?.labels ?? {};
    if (!Object.keys(match).length && !spec?.selector?.matchExpressions?.length) problems.push('spec.selector is empty');
    for (const [k, v] of Object.entries(match)) {
      if (labels[k] !== v) problems.push(`spec.selector.matchLabels ${k}=${v} is not a pod template label (template has ${k}=${labels[k] ?? '<unset>'})`);
    }
  }
  if (kind === 'AlertmanagerConfig') problems.push(...alertmanagerConfigProblems(spec ?? {}));
  problems.push(...findNulls(obj));
  return [...new Set(problems)];
}

let files;
try {
  files = (await readdir(dir, { recursive: true })).map((f) => f.split(sep).join('/')).filter((f) => /\.ya?ml$/.test(f)).sort();
} catch (e) {
  console.error(`conformance: cannot read '${dir}' (${e.code ?? e.message}); run synth first`);
  process.exit(1);
}

let passed = 0;
let failed = 0;
for (const f of files) {
  const file = join(dir, f);
  // cdk8s writes YAML 1.1 and Kubernetes reads YAML 1.1 (yes/no/on/off are booleans): parse the same way.
  const docs = parseAllDocuments(await readFile(file, 'utf8'), { version: '1.1' });
  const lines = [];
  let count = 0;
  for (const doc of docs) {
    const obj = doc.errors.length ? undefined : doc.toJS();
    if (!doc.errors.length && obj == null) continue; // empty document between `---` separators
    count++;
    const md = obj?.metadata ?? {};
    const id = `${obj?.kind ?? '<no kind>'}/${md.namespace ? `${md.namespace}/` : ''}${md.name ?? '<no name>'}`;
    const problems = doc.errors.length ? doc.errors.map((e) => `YAML: ${e.message.split('\n')[0].replace(/:$/, '')}`) : await check(obj);
    if (problems.length) failed++;
    else passed++;
    for (const p of problems) lines.push(`${file}: ${doc.errors.length ? `document ${count}` : id}: ${p}`);
  }
  console.log(`${file}: ${count} object${count === 1 ? '' : 's'}`);
  for (const l of lines) console.log(l);
}

console.log(`conformance: ${passed} passed, ${failed} failed`);
if (passed + failed === 0) console.error(`conformance: no Kubernetes objects found under '${dir}'; did synth run?`);
process.exitCode = failed > 0 || passed + failed === 0 ? 1 : 0;

/**
 * Cheap checks that a synthesized output holds no invalid value: on its own (no NaN or Infinity, no `undefined`, no
 * int32 overflow, well-formed Kubernetes names and labels and S3 URLs) and against the output of the unmutated
 * description (a field that was a whole number, non-negative, or of one JSON type stays so).
 */

/** Kubernetes int32 fields (replicas, ports, probe thresholds, seconds) hold at most this. */
export const INT32_MAX = 2 ** 31 - 1;

/** A finding: the class it counts under and where it was found. */
export interface OutputProblem {
  readonly check: string;
  readonly detail: string;
}

/*
 * The API server's name and label rules, as kubernetes/apimachinery v0.35.7 writes them:
 * - DNS-1123 label `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, at most 63: kubernetes/apimachinery:pkg/util/validation/validation.go@v0.35.7 lines 155, 161;
 * - DNS-1123 subdomain, labels joined by `.`, at most 253: same file lines 184, 191;
 * - DNS-1035 label `[a-z]([-a-z0-9]*[a-z0-9])?`, at most 63: same file lines 222, 226;
 * - a label key's name `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, at most 63, with an optional DNS-1123 subdomain prefix
 *   and one '/': kubernetes/apimachinery:pkg/api/validate/content/kube.go@v0.35.7 lines 24-26, 28, 43-72;
 * - a label value: empty or the same format, at most 63: same file lines 74, 78.
 */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
/** A word a template literal writes for a value that was missing or not a string. */
const LEAKED = /\bundefined\b|\bNaN\b|\bInfinity\b|\[object Object\]/;
/**
 * An S3 URL: a bucket name of 3 to 63 lowercase letters, digits, '.' and '-' that begins and ends with a letter or digit
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html, general purpose buckets), then key
 * segments with no empty one and no whitespace (the layout `<prefix>/<server>` the Terraform side already insists on).
 */
const S3_URL = /s3:\/\/[^\s"',;]*/g;
const S3_URL_VALID = /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^/\s]+)*\/?$/;
/**
 * The name rule of a kind, where it is stricter than a DNS-1123 subdomain (the rule of the other kinds, custom resources
 * included): a Namespace's name is a DNS-1123 label (kubernetes/apimachinery:pkg/api/validation/generic.go@v0.35.7 line 69),
 * a Service's a DNS-1035 label (kubernetes/kubernetes:pkg/apis/core/validation/validation.go, `ValidateServiceName =
 * NameIsDNS1035Label`, read at commit 000f26050b9b: the repository is too large to fetch at a release tag here).
 */
const NAME_RULES: Readonly<Record<string, RegExp>> = { Namespace: DNS_LABEL, Service: DNS_1035_LABEL };

type Json = unknown;

/** The path of a description in a CRD's schema (crds/, applied by the add-ons stack). */
const UPSTREAM_PROSE = /\.openAPIV3Schema\..*\bdescription$/;

/** Every leaf of `value` with its path (`spec.template.spec.containers[0].args[3]`). */
function leaves(value: Json, path: string, visit: (path: string, leaf: Json) => void): void {
  if (Array.isArray(value)) value.forEach((v, i) => leaves(v, `${path}[${i}]`, visit));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) leaves(v, path === '' ? k : `${path}.${k}`, visit);
  } else visit(path, value);
}

/** The value checks every output gets, Kubernetes objects and Terraform JSON alike. */
export function valueProblems(output: Json, where: string): OutputProblem[] {
  const found: OutputProblem[] = [];
  leaves(output, '', (path, leaf) => {
    const at = `${where}.${path}`;
    if (leaf === undefined) found.push({ check: 'output: undefined', detail: at });
    else if (typeof leaf === 'number') {
      if (!Number.isFinite(leaf)) found.push({ check: 'output: NaN or Infinity', detail: `${at} = ${leaf}` });
      else if (Number.isInteger(leaf) && Math.abs(leaf) > INT32_MAX) found.push({ check: 'output: beyond int32', detail: `${at} = ${leaf}` });
    } else if (typeof leaf === 'string') {
      // A vendored CRD's schema descriptions are upstream prose ("... is undefined"), not values the library wrote.
      const leaked = UPSTREAM_PROSE.test(path) ? null : LEAKED.exec(leaf);
      if (leaked) found.push({ check: `output: '${leaked[0]}' in a string`, detail: `${at} = ${leaf.slice(0, 120)}` });
      for (const url of leaf.match(S3_URL) ?? []) {
        if (!S3_URL_VALID.test(url) || url.includes('//', 5)) found.push({ check: 'output: malformed S3 URL', detail: `${at} = ${url}` });
      }
    }
  });
  return found;
}

function labelProblems(labels: unknown, at: string): OutputProblem[] {
  if (typeof labels !== 'object' || labels === null) return [];
  const found: OutputProblem[] = [];
  for (const [key, value] of Object.entries(labels)) {
    const slash = key.lastIndexOf('/');
    const [prefix, name] = slash < 0 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
    const keyOk = name.length <= 63 && LABEL_NAME.test(name) && (prefix === undefined || (prefix.length <= 253 && DNS_SUBDOMAIN.test(prefix)));
    if (!keyOk) found.push({ check: 'output: invalid label key', detail: `${at} '${key}'` });
    const valueOk = typeof value === 'string' && (value === '' || (value.length <= 63 && LABEL_NAME.test(value)));
    if (!valueOk) found.push({ check: 'output: invalid label value', detail: `${at}.${key} = ${JSON.stringify(value)}` });
  }
  return found;
}

/** Names, namespaces and labels of Kubernetes objects, as the API server validates them. */
export function kubernetesProblems(objects: readonly any[]): OutputProblem[] {
  const found: OutputProblem[] = [];
  // Two objects of one identity are one object to the API server: the later apply replaces the earlier.
  const seen = new Set<string>();
  for (const o of objects) {
    const identity = `${o.apiVersion}/${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
    if (seen.has(identity)) found.push({ check: 'output: two objects of one kind, namespace and name', detail: identity });
    seen.add(identity);
  }
  for (const o of objects) {
    const id = `${o.kind}/${o.metadata?.name}`;
    const name: unknown = o.metadata?.name;
    const rule = NAME_RULES[o.kind];
    const nameOk = typeof name === 'string' && (rule ? name.length <= 63 && rule.test(name) : name.length <= 253 && DNS_SUBDOMAIN.test(name));
    if (!nameOk) found.push({ check: 'output: invalid object name', detail: `${o.kind} ${JSON.stringify(name)}` });
    const namespace: unknown = o.metadata?.namespace;
    if (namespace !== undefined && !(typeof namespace === 'string' && namespace.length <= 63 && DNS_LABEL.test(namespace))) {
      found.push({ check: 'output: invalid namespace', detail: `${id} ${JSON.stringify(namespace)}` });
    }
    // Object labels, pod template labels and label selectors.
    const walk = (value: unknown, path: string): void => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
      else if (typeof value === 'object' && value !== null) {
        for (const [k, v] of Object.entries(value)) {
          if ((k === 'labels' && path.endsWith('metadata')) || k === 'matchLabels') found.push(...labelProblems(v, `${id} ${path}.${k}`));
          else walk(v, path === '' ? k : `${path}.${k}`);
        }
      }
    };
    walk(o, '');
  }
  return found;
}

/** Kubernetes objects by identity, so that a mutated output is compared object by object with the unmutated one. */
export function byIdentity(objects: readonly any[]): Map<string, any> {
  return new Map(objects.map((o) => [`${o.apiVersion}/${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`, o]));
}

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * Fields that may turn negative, by the kind of the object holding them (a Kubernetes object, or one inside a Terraform
 * kubernetes_manifest): the heuristic "non-negative in the unmutated output, so non-negative" is wrong there.
 * - InferenceObjective `spec.priority`: an int32, "negative values _are_ allowed"; a negative priority marks requests
 *   the endpoint picker may shed while the pool is saturated (llm-d/llm-d-router:apix/v1alpha2/inferenceobjective_types.go@v0.10.0
 *   lines 60-73; pkg/epp/requestcontrol/admission.go@v0.10.0 lines 66-80). The library refuses it only where the
 *   picker would shed every such request (a backend without saturation signals, resolveInferencePool), which the fuzz
 *   checks as a contradiction (mutations.ts).
 */
const SIGNED_FIELDS: Readonly<Record<string, RegExp>> = { InferenceObjective: /\.spec\.priority$/ };

/**
 * Fields that changed kind against the unmutated output: a whole number became a fraction, a non-negative number
 * became negative, a value changed its JSON type (a label value `42` where `'v2'` was).
 */
export function comparedProblems(baseline: unknown, mutated: unknown, path: string): OutputProblem[] {
  const found: OutputProblem[] = [];
  const walk = (b: unknown, m: unknown, at: string, kind?: string): void => {
    if (b === undefined || m === undefined) return;
    const [tb, tm] = [jsonType(b), jsonType(m)];
    if (tb !== tm) {
      found.push({ check: 'output: field changed its type', detail: `${at}: ${tb} ${JSON.stringify(b)?.slice(0, 40)} -> ${tm} ${JSON.stringify(m)?.slice(0, 40)}` });
      return;
    }
    if (tb === 'number') {
      const [nb, nm] = [b as number, m as number];
      if (Number.isInteger(nb) && Number.isFinite(nm) && !Number.isInteger(nm)) found.push({ check: 'output: fraction in a whole-number field', detail: `${at}: ${nb} -> ${nm}` });
      const signed = kind !== undefined && SIGNED_FIELDS[kind]?.test(at) === true;
      if (nb >= 0 && nm < 0 && !signed) found.push({ check: 'output: negative in a non-negative field', detail: `${at}: ${nb} -> ${nm}` });
    } else if (tb === 'array') {
      const [ab, am] = [b as unknown[], m as unknown[]];
      for (let i = 0; i < Math.min(ab.length, am.length); i++) walk(ab[i], am[i], `${at}[${i}]`, kind);
    } else if (tb === 'object') {
      const o = m as Record<string, unknown>;
      const inner = typeof o.apiVersion === 'string' && typeof o.kind === 'string' ? o.kind : kind;
      for (const [k, v] of Object.entries(o)) walk((b as Record<string, unknown>)[k], v, `${at}.${k}`, inner);
    }
  };
  walk(baseline, mutated, path);
  return found;
}

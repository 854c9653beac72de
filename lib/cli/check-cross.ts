/**
 * The cross-object rules triton-ops enforces at synth (lib/k8s/mesh/mesh-services.ts, lib/k8s/monitoring/
 * triton-scrape.ts, the autoscalers, disruption budgets and canary subsets), checked on files so that they also hold
 * for output that was edited, patched or assembled from several apps. Objects are compared within what one cluster
 * holds together: the YAML files of one folder (`dist/<cluster>/`: an app writes one file per chart there, and a route
 * may name a Service of another chart), and the `kubernetes_manifest` resources of one Terraform stack (its
 * cdk.tf.json); a Service of another cluster never satisfies a route. Pods are those of the workloads' templates (lib/cli/pod-templates.ts:
 * a LeaderWorkerSet's leaders and workers, with the labels its controller adds) and bare Pods; Services, monitors,
 * disruption budgets and subsets must select some (CHECKLIST R05). The LLM-aware routing (lib/k8s/inference/) is
 * checked by reference: an HTTPRoute's Gateway API Gateway, listener and backends, an InferencePool's pods, target ports
 * and endpoint picker, an InferenceObjective's pool.
 */
import { dirname } from 'path';
import { INFERENCE_POOL_GROUP } from '../k8s/inference/inference-types';
import { GATEWAY_API_GROUP } from '../k8s/mesh/gateway-api-types';
import { classifyServiceHost, serviceHost } from '../triton/routing/mesh-hosts';
import { FoundObject, objectId, CheckCase } from './check-types';
import { Labels, podTemplates } from './pod-templates';

interface Selector { matchLabels?: Labels; matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> }
interface Obj { kind: string; name: string; namespace: string; labels: Labels; raw: any; found: FoundObject }
/** A port of a container or a Service, and its name. */
interface NamedPort { number: number; name?: string }
/** A set of pods: a workload's pod template (a LeaderWorkerSet has two: its leaders and its workers), or a bare Pod. */
interface Pods {
  kind: string; name: string; namespace: string; labels: Labels;
  /** Labels the pods carry with values set per pod or group (see PodTemplateOf.varying). */
  varying?: readonly string[];
  /** `leader` or `workers` of a LeaderWorkerSet. */
  part?: string;
  /** The ports its containers declare. */
  ports: NamedPort[];
}

/** The ports the containers of a pod spec declare. */
const containerPorts = (podSpec: any): NamedPort[] => (Array.isArray(podSpec?.containers) ? podSpec.containers : [])
  .flatMap((c: any) => (Array.isArray(c?.ports) ? c.ports : []))
  .filter((p: any) => typeof p?.containerPort === 'number')
  .map((p: any) => ({ number: p.containerPort, ...(typeof p.name === 'string' ? { name: p.name } : {}) }));
/** `9000 (http-openai), 8002`: ports of a container or a Service as a report lists them. */
const showPorts = (ports: readonly NamedPort[]) => (ports.length ? ports.map((p) => `${p.number}${p.name ? ` (${p.name})` : ''}`).join(', ') : 'none');
/** The API group of an apiVersion: `''` for the core group's `v1`. */
const groupOf = (apiVersion: unknown) => (typeof apiVersion === 'string' && apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/**
 * Whether a Kubernetes label selector selects `labels`; an empty selector selects everything. A key of `varying` is on
 * every pod with a value known only at run time: a selector on it may select some of the pods, so it counts as a match
 * (except `DoesNotExist`).
 */
export function selects(selector: Selector | undefined, labels: Labels, varying: readonly string[] = []): boolean {
  const unknown = (key: string) => varying.includes(key) && !Object.prototype.hasOwnProperty.call(labels, key);
  for (const [k, v] of Object.entries(selector?.matchLabels ?? {})) if (labels[k] !== v && !unknown(k)) return false;
  for (const e of selector?.matchExpressions ?? []) {
    if (unknown(e.key)) {
      if (e.operator === 'DoesNotExist') return false;
      continue;
    }
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const inValues = has && (e.values ?? []).includes(labels[e.key]);
    if ((e.operator === 'In' && !inValues) || (e.operator === 'NotIn' && inValues)
      || (e.operator === 'Exists' && !has) || (e.operator === 'DoesNotExist' && has)) return false;
  }
  return true;
}

/** Whether `selector` selects pods of `pods`. */
const selectsPods = (selector: Selector | undefined, pods: Pods): boolean => selects(selector, pods.labels, pods.varying);
/** How a report names a set of pods: `Deployment ml/ranker`, `LeaderWorkerSet ml/chat (leader)`. */
const podsName = (p: Pods, namespace = true): string => `${p.kind} ${namespace ? `${p.namespace}/` : ''}${p.name}${p.part ? ` (${p.part})` : ''}`;

const showSelector = (s: Selector | undefined) => {
  const parts = Object.entries(s?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of s?.matchExpressions ?? []) parts.push(`${e.key} ${e.operator}${e.values ? ` (${e.values.join(', ')})` : ''}`);
  return parts.length ? parts.join(', ') : '<everything>';
};
const list = (names: readonly string[]) => (names.length ? names.map((n) => `'${n}'`).join(', ') : 'none');

class Output {
  public readonly objects: Obj[] = [];
  public readonly services: Obj[] = [];
  public readonly pods: Pods[] = [];
  public readonly namespaces = new Set<string>();
  /** Hosts ServiceEntries of the output declare: known to the mesh although no Service has them. */
  public readonly entryHosts = new Set<string>();

  public constructor(found: readonly FoundObject[]) {
    for (const f of found) {
      const raw = f.value as any;
      if (typeof raw !== 'object' || raw === null || typeof raw.kind !== 'string') continue;
      const o: Obj = { kind: raw.kind, name: String(raw.metadata?.name ?? ''), namespace: String(raw.metadata?.namespace ?? ''),
        labels: raw.metadata?.labels ?? {}, raw, found: f };
      this.objects.push(o);
      if (o.namespace) this.namespaces.add(o.namespace);
      if (o.kind === 'Namespace') this.namespaces.add(o.name);
      if (o.kind === 'Service') this.services.push(o);
      if (o.kind === 'Pod') this.pods.push({ kind: 'Pod', name: o.name, namespace: o.namespace, labels: o.labels, ports: containerPorts(raw.spec) });
      for (const t of podTemplates(raw)) {
        this.pods.push({ kind: o.kind, name: o.name, namespace: o.namespace, labels: t.labels, varying: t.varying, part: t.part,
          ports: containerPorts((t.template as any)?.spec) });
      }
      if (o.kind === 'ServiceEntry') for (const h of raw.spec?.hosts ?? []) this.entryHosts.add(h);
    }
  }

  public service(name: string, namespace: string): Obj | undefined {
    return this.services.find((s) => s.name === name && s.namespace === namespace);
  }
  public serviceNames(namespace: string): string[] {
    return this.services.filter((s) => s.namespace === namespace).map((s) => s.name).sort();
  }
  /** The objects of `kind` in API group `group` and `namespace`. */
  public ofKind(group: string, kind: string, namespace: string): Obj[] {
    return this.objects.filter((o) => o.kind === kind && groupOf(o.raw.apiVersion) === group && o.namespace === namespace);
  }
}

/**
 * How Istio reads a host named by a VirtualService or DestinationRule in `namespace`: a name without dots is short
 * for `<name>.<namespace>.svc.cluster.local`; every other name is taken as written, so `<svc>.<ns>.svc` and
 * `<svc>.<ns>` match no Service. Returns the problem with the host, or undefined when it resolves or is not a cluster name.
 */
function hostProblem(host: string, namespace: string, out: Output, external: ReadonlySet<string>): string | undefined {
  if (external.has(host) || out.entryHosts.has(host)) return undefined;
  const missing = (name: string, ns: string) => `names Service '${name}' in namespace '${ns}', which this output does not define, `
    + `so the route sends to nothing (IST0101); Services of the output in namespace '${ns}': ${list(out.serviceNames(ns))}`;
  if (!host.includes('.')) {
    if (host === '*') return undefined; // a gateway-wide host; refused at synth, not a Service name
    return out.service(host, namespace) ? undefined : missing(host, namespace);
  }
  const k = classifyServiceHost(host, (ns) => out.namespaces.has(ns));
  if (k.kind === 'wildcard') return 'is a wildcard of the cluster domain: it would take the traffic of every Service it covers; list the FQDN of the Service';
  if (k.kind === 'short') {
    return `is a short name of Service '${k.name}' in namespace '${k.namespace}', which Istio does not expand (only names without dots are); `
      + `use the FQDN '${serviceHost(k.name, k.namespace)}'`;
  }
  if (k.kind === 'fqdn') return out.service(k.name, k.namespace) ? undefined : missing(k.name, k.namespace);
  return undefined; // not a Service name of the cluster domain
}

/** The Service a resolvable host names, for DestinationRule subsets. */
function hostService(host: string, namespace: string, out: Output): Obj | undefined {
  if (!host.includes('.')) return out.service(host, namespace);
  const k = classifyServiceHost(host, (ns) => out.namespaces.has(ns));
  return k.kind === 'fqdn' ? out.service(k.name, k.namespace) : undefined;
}

function virtualServiceProblems(o: Obj, out: Output, external: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const spec = o.raw.spec ?? {};
  (spec.hosts ?? []).forEach((h: string, i: number) => {
    const p = hostProblem(h, o.namespace, out, external);
    if (p) problems.push(`.spec.hosts[${i}] '${h}' ${p}`);
  });
  for (const kind of ['http', 'tcp', 'tls'] as const) {
    (spec[kind] ?? []).forEach((route: any, i: number) => (route.route ?? []).forEach((r: any, j: number) => {
      const host = r.destination?.host;
      if (typeof host !== 'string') return;
      const p = hostProblem(host, o.namespace, out, external);
      if (p) problems.push(`.spec.${kind}[${i}].route[${j}].destination.host '${host}' ${p}`);
      const subset = r.destination?.subset;
      if (typeof subset === 'string' && !p) {
        const rules = out.objects.filter((d) => d.kind === 'DestinationRule' && d.raw.spec?.host !== undefined
          && sameHost(d.raw.spec.host, d.namespace, host, o.namespace));
        if (rules.length && !rules.some((d) => (d.raw.spec?.subsets ?? []).some((s: any) => s.name === subset))) {
          problems.push(`.spec.${kind}[${i}].route[${j}].destination.subset '${subset}' is not a subset of the DestinationRule for '${host}' `
            + `(${rules.map((d) => `${d.namespace}/${d.name}`).join(', ')})`);
        }
      }
    }));
  }
  return problems;
}

/** Two hosts naming the same Service (short names expanded in their own namespaces). */
function sameHost(a: string, aNs: string, b: string, bNs: string): boolean {
  const full = (h: string, ns: string) => (h.includes('.') ? h : serviceHost(h, ns));
  return full(a, aNs) === full(b, bNs);
}

/** The namespaces a monitor looks in: `namespaceSelector.matchNames`, every namespace with `any: true`, else its own. */
export function monitorNamespaces(o: Pick<Obj, 'raw' | 'namespace'>): string[] | 'any' {
  const ns = o.raw.spec?.namespaceSelector;
  if (ns?.any === true) return 'any';
  return ns?.matchNames?.length ? ns.matchNames : [o.namespace];
}

function monitorProblems(o: Obj, out: Output): string[] {
  const service = o.kind === 'ServiceMonitor';
  const selector: Selector | undefined = o.raw.spec?.selector;
  const where = monitorNamespaces(o);
  const inScope = (ns: string) => where === 'any' || where.includes(ns);
  const whereText = where === 'any' ? 'any namespace' : `namespace${where.length > 1 ? 's' : ''} ${list(where)}`;
  if (service) {
    const candidates = out.services.filter((s) => inScope(s.namespace));
    if (candidates.some((s) => selects(selector, s.labels))) return [];
    return [`.spec.selector (${showSelector(selector)}) selects no Service of the output in ${whereText}, so nothing is scraped; `
      + `Services there: ${list(candidates.map((s) => `${s.namespace}/${s.name}`))}`];
  }
  const candidates = out.pods.filter((p) => inScope(p.namespace));
  if (candidates.some((p) => selectsPods(selector, p))) return [];
  return [`.spec.selector (${showSelector(selector)}) selects no pods of the output in ${whereText}, so nothing is scraped; `
    + `pod templates there: ${list(candidates.map((p) => podsName(p)))}`];
}

function scaleTargetProblems(o: Obj, out: Output): string[] {
  const ref = o.raw.spec?.scaleTargetRef ?? {};
  const kind: string = ref.kind ?? (o.kind === 'ScaledObject' ? 'Deployment' : undefined);
  const name: string | undefined = ref.name;
  if (!name || !kind) return ['.spec.scaleTargetRef names no target'];
  if (out.objects.some((t) => t.kind === kind && t.name === name && t.namespace === o.namespace)) return [];
  const same = out.objects.filter((t) => t.kind === kind && t.namespace === o.namespace).map((t) => t.name).sort();
  return [`.spec.scaleTargetRef ${kind} '${name}' is not an object of the output in namespace '${o.namespace}', so nothing is scaled; `
    + `${kind}s there: ${list(same)}`];
}

function pdbProblems(o: Obj, out: Output): string[] {
  const selector: Selector | undefined = o.raw.spec?.selector;
  const candidates = out.pods.filter((p) => p.namespace === o.namespace);
  if (!selector || (!Object.keys(selector.matchLabels ?? {}).length && !(selector.matchExpressions ?? []).length)) {
    return ['.spec.selector is empty, so the budget covers every pod of the namespace'];
  }
  if (candidates.some((p) => selectsPods(selector, p))) return [];
  return [`.spec.selector (${showSelector(selector)}) selects no pods of the output in namespace '${o.namespace}', so the budget protects nothing; `
    + `pod templates there: ${list(candidates.map((p) => podsName(p, false)))}`];
}

/**
 * The problem of a selector (`.spec.selector` of an object of `what`) that selects no pods of the output in
 * `namespace`, or undefined: a Service and an InferencePool select pods of their own namespace only.
 */
function selectsNoPods(selector: Selector, namespace: string, out: Output, what: string): string | undefined {
  const candidates = out.pods.filter((p) => p.namespace === namespace);
  if (candidates.some((p) => selectsPods(selector, p))) return undefined;
  return `.spec.selector (${showSelector(selector)}) selects no pods of the output in namespace '${namespace}', `
    + `so the ${what} has no endpoints; pod templates there: ${list(candidates.map((p) => podsName(p, false)))}`;
}

/** A Service's selector (when it has one) must select pods of the output in its namespace (CHECKLIST R05). */
function serviceProblems(o: Obj, out: Output): string[] {
  const selector: Labels | undefined = o.raw.spec?.selector;
  if (o.raw.spec?.type === 'ExternalName' || !selector || !Object.keys(selector).length) return [];
  const p = selectsNoPods({ matchLabels: selector }, o.namespace, out, 'Service');
  return p ? [p] : [];
}

function destinationRuleProblems(o: Obj, out: Output, external: ReadonlySet<string>): string[] {
  const host = o.raw.spec?.host;
  if (typeof host !== 'string') return [];
  const hp = hostProblem(host, o.namespace, out, external);
  if (hp) return [`.spec.host '${host}' ${hp}`];
  const svc = hostService(host, o.namespace, out);
  if (!svc) return [];
  const base: Labels = svc.raw.spec?.selector ?? {};
  const pods = out.pods.filter((p) => p.namespace === svc.namespace && selectsPods({ matchLabels: base }, p));
  const problems: string[] = [];
  (o.raw.spec?.subsets ?? []).forEach((s: any, i: number) => {
    const labels: Labels = s.labels ?? {};
    if (pods.some((p) => selectsPods({ matchLabels: labels }, p))) return;
    problems.push(`.spec.subsets[${i}] '${s.name}' labels (${showSelector({ matchLabels: labels })}) match no pods of Service `
      + `${svc.namespace}/${svc.name}, so traffic to the subset fails (no healthy upstream); its pods: `
      + `${list(pods.map((p) => `${podsName(p, false)} (${showSelector({ matchLabels: p.labels })})`))}`);
  });
  return problems;
}

/**
 * The object of `kind` in API group `group` named `name` in `namespace`, or the problem of the reference at `at`
 * naming one the output does not define: what then happens (`effect`) and the objects of the kind there. `what` is how
 * the report calls the kind.
 */
function referenced(out: Output, at: string, ref: { group: string; kind: string; name: string; namespace: string },
  effect: string, what = ref.kind): { found: Obj } | { problem: string } {
  const there = out.ofKind(ref.group, ref.kind, ref.namespace);
  const found = there.find((t) => t.name === ref.name);
  if (found) return { found };
  return { problem: `${at} ${ref.kind} '${ref.name}' is not ${/^[AEIOU]/.test(what) ? 'an' : 'a'} ${what} of the output in namespace `
    + `'${ref.namespace}', so ${effect}; ${what}s there: ${list(there.map((t) => t.name).sort())}` };
}

/**
 * A reference's port of `service`, which the Gateway API and the inference extension both read as the Service's port,
 * not its target port, and require for a Service. Returns the problem, or undefined when the Service has the port.
 */
function servicePortProblem(at: string, portPath: string, service: Obj, port: unknown, effect: string): string | undefined {
  const ports: NamedPort[] = (service.raw.spec?.ports ?? []).map((p: any) => ({ number: p.port, ...(typeof p.name === 'string' ? { name: p.name } : {}) }));
  const svc = `Service ${service.namespace}/${service.name}`;
  if (port === undefined) {
    return `${at} names ${svc} with no port, which the API requires for a Service; set ${portPath} to one of its ports: ${showPorts(ports)}`;
  }
  if (ports.some((p) => p.number === port)) return undefined;
  return `${at}${portPath} ${port} is not a port of ${svc} (the Service's port is meant, not its target port), so ${effect}; `
    + `its ports: ${showPorts(ports)}`;
}

/**
 * An HTTPRoute's Gateway API Gateways and listeners, its InferencePools and Services. A parentRef's group defaults to
 * the Gateway API's, its kind to Gateway, its namespace to the route's; a backendRef's group to the core group, its kind
 * to Service, its namespace to the route's (kubernetes-sigs/gateway-api:apis/v1/shared_types.go@v1.7.0 lines 36-61,
 * apis/v1/object_reference_types.go lines 105-159). A backend that does not resolve answers 500 (httproute_types.go
 * lines 286-290).
 */
function httpRouteProblems(o: Obj, out: Output): string[] {
  const problems: string[] = [];
  const spec = o.raw.spec ?? {};
  (spec.parentRefs ?? []).forEach((ref: any, i: number) => {
    if ((ref.group ?? GATEWAY_API_GROUP) !== GATEWAY_API_GROUP || (ref.kind ?? 'Gateway') !== 'Gateway') return;
    const at = `.spec.parentRefs[${i}]`;
    const r = referenced(out, at, { group: GATEWAY_API_GROUP, kind: 'Gateway', name: ref.name, namespace: ref.namespace ?? o.namespace },
      'the route is attached to no gateway and serves nothing', 'Gateway API Gateway');
    if ('problem' in r) {
      problems.push(r.problem);
      return;
    }
    const listeners: string[] = (r.found.raw.spec?.listeners ?? []).map((l: any) => String(l.name));
    if (ref.sectionName && !listeners.includes(ref.sectionName)) {
      problems.push(`${at}.sectionName '${ref.sectionName}' is not a listener of Gateway ${r.found.namespace}/${r.found.name}, so the `
        + `route is attached to no listener and serves nothing; its listeners: ${list(listeners)}`);
    }
  });
  (spec.rules ?? []).forEach((rule: any, i: number) => (rule.backendRefs ?? []).forEach((ref: any, j: number) => {
    const at = `.spec.rules[${i}].backendRefs[${j}]`;
    const [group, kind, namespace] = [ref.group ?? '', ref.kind ?? 'Service', ref.namespace ?? o.namespace];
    const effect = 'its requests are answered 500';
    if (group === INFERENCE_POOL_GROUP && kind === 'InferencePool') {
      const r = referenced(out, at, { group, kind, name: ref.name, namespace }, effect);
      if ('problem' in r) problems.push(r.problem);
    } else if (group === '' && kind === 'Service') {
      const r = referenced(out, at, { group, kind, name: ref.name, namespace }, effect);
      const p = 'problem' in r ? r.problem : servicePortProblem(at, '.port', r.found, ref.port, effect);
      if (p) problems.push(p);
    }
  }));
  return problems;
}

/**
 * An InferencePool's selector must select pods of its namespace (it selects no others), each of its target ports must be
 * a container port of them, and its endpoint picker (group core, kind Service by default) must be a Service of its
 * namespace with the port it names, the Service's port (kubernetes-sigs/gateway-api-inference-extension:
 * api/v1/inferencepool_types.go@v1.6.2 lines 61-81, 126-173).
 */
function inferencePoolProblems(o: Obj, out: Output): string[] {
  const problems: string[] = [];
  const spec = o.raw.spec ?? {};
  const selector: Selector = { matchLabels: spec.selector?.matchLabels ?? {} };
  const none = selectsNoPods(selector, o.namespace, out, 'pool');
  if (none) problems.push(none);
  // Ports are asked of the pods the selector surely selects: not of those a per-pod label might (a group's workers by index).
  const members = out.pods.filter((p) => p.namespace === o.namespace && selects(selector, p.labels));
  (spec.targetPorts ?? []).forEach((t: any, i: number) => {
    for (const p of members.filter((m) => !m.ports.some((c) => c.number === t?.number))) {
      problems.push(`.spec.targetPorts[${i}].number ${t?.number} is not a container port of ${podsName(p, false)}, so the requests the `
        + `pool sends there find nothing listening; its container ports: ${showPorts(p.ports)}`);
    }
  });
  const ref = spec.endpointPickerRef;
  if (ref && (ref.group ?? '') === '' && (ref.kind ?? 'Service') === 'Service') {
    const effect = (ref.failureMode ?? 'FailClose') === 'FailOpen' ? 'the gateway routes the pool\'s requests unscored (failureMode FailOpen)'
      : 'the gateway drops every request of the pool (failureMode FailClose)';
    const at = '.spec.endpointPickerRef';
    const r = referenced(out, at, { group: '', kind: 'Service', name: ref.name, namespace: o.namespace }, effect);
    const p = 'problem' in r ? r.problem : servicePortProblem(at, '.port.number', r.found, ref.port?.number, effect);
    if (p) problems.push(p);
  }
  return problems;
}

/**
 * An InferenceObjective's pool (group inference.networking.k8s.io, kind InferencePool by default) must be an
 * InferencePool of its namespace (llm-d/llm-d-router:apix/v1alpha2/inferenceobjective_types.go@v0.10.0 line 75,
 * apix/v1alpha2/shared_types.go lines 133-150).
 */
function objectiveProblems(o: Obj, out: Output): string[] {
  const ref = o.raw.spec?.poolRef ?? {};
  if ((ref.group ?? INFERENCE_POOL_GROUP) !== INFERENCE_POOL_GROUP || (ref.kind ?? 'InferencePool') !== 'InferencePool') return [];
  const r = referenced(out, '.spec.poolRef', { group: INFERENCE_POOL_GROUP, kind: 'InferencePool', name: ref.name, namespace: o.namespace },
    'no endpoint picker applies its priority');
  return 'problem' in r ? [r.problem] : [];
}

/** The cross-object cases: one per object a rule applies to. */
export function crossObjectCases(found: readonly FoundObject[], external: ReadonlySet<string> = new Set()): CheckCase[] {
  const cases: CheckCase[] = [];
  const clusterOf = (f: FoundObject) => `${f.pool}:${dirname(f.file)}`;
  for (const cluster of new Set(found.map(clusterOf))) {
    const out = new Output(found.filter((f) => clusterOf(f) === cluster && !f.parseErrors?.length));
    for (const o of out.objects) {
      let problems: string[] | undefined;
      switch (o.kind) {
        case 'VirtualService': problems = virtualServiceProblems(o, out, external); break;
        case 'ServiceMonitor': case 'PodMonitor': problems = monitorProblems(o, out); break;
        case 'HorizontalPodAutoscaler': case 'ScaledObject': problems = scaleTargetProblems(o, out); break;
        case 'PodDisruptionBudget': problems = pdbProblems(o, out); break;
        case 'Service': problems = serviceProblems(o, out); break;
        case 'DestinationRule': problems = destinationRuleProblems(o, out, external); break;
        case 'HTTPRoute': problems = httpRouteProblems(o, out); break;
        case 'InferencePool':
          if (groupOf(o.raw.apiVersion) !== INFERENCE_POOL_GROUP) continue; // the alpha API's pool has other fields
          problems = inferencePoolProblems(o, out); break;
        case 'InferenceObjective': problems = objectiveProblems(o, out); break;
        default: continue;
      }
      cases.push({ suite: 'cross-object', file: o.found.file, object: objectId(o.found), problems });
    }
  }
  return cases;
}

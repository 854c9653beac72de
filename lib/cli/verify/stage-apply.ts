/**
 * The apply stage: every object through server-side apply with strict field validation (`kubectl apply --server-side
 * --validate=strict`), CRDs and Namespaces first, so the API server decides: its OpenAPI and CEL validation, defaulting,
 * the admission plugins (PodSecurity, ServiceAccount, ...) and the CRDs' x-kubernetes-validations rules. A refusal names
 * the file, the object and the API server's message; a warning (an unknown field tolerated, a deprecated API) fails too,
 * as `kubectl --warnings-as-errors` would.
 */
import { KubeApi, messageOf } from './kube-api';
import type { Manifest } from './manifests';
import { applyOrder } from './manifests';
import type { VerifyCase } from './report';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until every CRD applied is Established (its resources served), at most `seconds`. */
async function waitEstablished(api: KubeApi, names: readonly string[], seconds: number): Promise<string[]> {
  const deadline = Date.now() + seconds * 1000;
  let pending = [...names];
  while (pending.length && Date.now() < deadline) {
    const next: string[] = [];
    for (const name of pending) {
      const r = await api.call('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
      const established = r.status === 200 && (r.body.status?.conditions ?? [])
        .some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True');
      if (!established) next.push(name);
    }
    pending = next;
    if (pending.length) await sleep(250);
  }
  return pending;
}

/** Applies `crds` (the CRDs the output needs) then `manifests`; one case per object. */
export async function applyStage(api: KubeApi, crds: readonly Manifest[], manifests: readonly Manifest[],
  print: (c: VerifyCase) => void): Promise<VerifyCase[]> {
  const cases: VerifyCase[] = [];
  const record = (c: VerifyCase) => { cases.push(c); print(c); };
  const applyOne = async (m: Manifest): Promise<boolean> => {
    const info = await api.resource(m.object.apiVersion, m.object.kind);
    if (!info) {
      record({ stage: 'apply', subject: m.id, file: m.file, problems: [`no API serves ${m.object.kind} in ${m.object.apiVersion} (is its CRD in the crds folder?)`] });
      return false;
    }
    const r = await api.apply(m.object, info);
    const problems = r.status >= 200 && r.status < 300 ? r.warnings.map((w) => `warning: ${w}`) : [messageOf(r)];
    record({ stage: 'apply', subject: m.id, file: m.file, problems });
    return problems.length === 0;
  };
  const crdNames: string[] = [];
  for (const m of [...crds, ...manifests.filter((x) => x.object.kind === 'CustomResourceDefinition')]) {
    if (await applyOne(m)) crdNames.push(m.object.metadata.name);
  }
  const notEstablished = await waitEstablished(api, crdNames, 60);
  for (const name of notEstablished) record({ stage: 'apply', subject: `CustomResourceDefinition ${name}`, problems: ['not Established within 60 s'] });
  // Namespaces the output puts objects in but does not make (monitoring, istio-system: the add-ons' Helm releases
  // make them) are made here, and said.
  const made = new Set(manifests.filter((m) => m.object.kind === 'Namespace').map((m) => m.object.metadata.name));
  for (const ns of [...new Set(manifests.map((m) => m.object.metadata.namespace).filter((n): n is string => !!n && !made.has(n)))].sort()) {
    const r = await api.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    record({ stage: 'apply', subject: `Namespace ${ns}`, problems: r.status === 201 ? [] : [messageOf(r)],
      detail: 'used by the output but not in it (an add-on makes it): made here' });
  }
  for (const m of applyOrder(manifests.filter((x) => x.object.kind !== 'CustomResourceDefinition'))) await applyOne(m);
  return cases;
}

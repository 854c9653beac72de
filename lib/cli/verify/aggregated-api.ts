/**
 * An aggregated API (custom.metrics.k8s.io of prometheus-adapter, external.metrics.k8s.io of KEDA's metrics server)
 * served by a local process of verify. Endpoints refuse loopback addresses, so its APIServices name a Service of type
 * ExternalName `localhost`, which the aggregator resolves to https://localhost:<port>
 * (k8s.io/apiserver:pkg/util/proxy/proxy.go ResolveCluster).
 */
import type { ControlPlane } from './control-plane';
import { messageOf } from './kube-api';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface AggregatedApi {
  /** The Service's name, in kube-system. */
  readonly service: string;
  readonly port: number;
  readonly group: string;
  readonly versions: readonly string[];
  /** Whose logs to read when it is not served (`the adapter`). */
  readonly server: string;
}

/** Registers the APIServices and waits until every version is served; undefined, or what failed. */
export async function serveAggregatedApi(plane: ControlPlane, a: AggregatedApi): Promise<string | undefined> {
  const api = plane.api;
  const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: a.service, namespace: 'kube-system' },
    spec: { type: 'ExternalName', externalName: 'localhost', ports: [{ name: 'https', port: a.port, protocol: 'TCP' }] } };
  const created = await api.call('POST', '/api/v1/namespaces/kube-system/services', service);
  if (created.status !== 201) return `${a.server}'s Service: ${messageOf(created)}`;
  for (const version of a.versions) {
    const r = await api.call('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: `${version}.${a.group}` },
      spec: { group: a.group, version, groupPriorityMinimum: 100, versionPriority: 100, insecureSkipTLSVerify: true,
        service: { namespace: 'kube-system', name: a.service, port: a.port } },
    });
    if (r.status !== 201) return `the ${version}.${a.group} APIService: ${messageOf(r)}`;
  }
  const deadline = Date.now() + 90_000;
  let waiting = [...a.versions];
  while (Date.now() < deadline) {
    const served = await Promise.all(waiting.map(async (v) => (await api.call('GET', `/apis/${a.group}/${v}`)).status === 200));
    waiting = waiting.filter((_, i) => !served[i]);
    if (waiting.length === 0) return undefined;
    await sleep(1000);
  }
  const status = await api.call('GET', `/apis/apiregistration.k8s.io/v1/apiservices/${waiting[0]}.${a.group}`);
  const condition = (status.body?.status?.conditions ?? []).find((c: any) => c.type === 'Available');
  return `${a.group}/${waiting[0]} was not served within 90 s: ${condition ? `${condition.reason}: ${condition.message}` : 'no Available condition'} `
    + `(${a.server}'s log in ${plane.workDir})`;
}

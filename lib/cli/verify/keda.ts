/**
 * KEDA for verify's autoscale stage: its operator and its metrics server (keda-operator and keda-adapter, built from
 * github.com/kedacore/keda/v2 at the pinned chart's release by tools/obtain.js) as local processes against the control
 * plane, and the applied copy of each ScaledObject made to run here.
 * - The two talk gRPC over mutual TLS, each reading ca.crt, tls.crt and tls.key from its --cert-dir
 *   (kedacore/keda:pkg/metricsservice/utils/tls.go@v2.21.1). With cert rotation off (the operator's
 *   --enable-cert-rotation, default false, cmd/operator/main.go) KEDA makes none: verify makes a CA and one certificate
 *   for localhost and 127.0.0.1, for server and client use, as KEDA's cert manager does for its Services
 *   (pkg/certificates/certificate_manager.go).
 * - Out of a pod, the operator needs KEDA_CLUSTER_OBJECT_NAMESPACE (else it reads the service account's namespace file,
 *   pkg/util/env_resolver.go GetClusterObjectNamespace); WATCH_NAMESPACE empty watches every namespace.
 * - The metrics server serves external.metrics.k8s.io v1beta1 (aggregated-api.ts), the API the HPAs KEDA makes read.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { KEDA_ADDON_DEFAULTS } from '../../fleet/addons/keda-addon';
import { SCALE_TO_ZERO_TRIGGERS } from '../../k8s/autoscaling/keda-scaled-object';
import { serveAggregatedApi } from './aggregated-api';
import { makeCertificates } from './certificates';
import type { ControlPlane } from './control-plane';
import { freePort } from './free-port';
import { scaledBehavior } from './scaled-behavior';

/** The HPA KEDA makes for a ScaledObject (kedacore/keda:controllers/keda/hpa.go@v2.21.1 getHPAName). */
export const kedaHpaName = (scaledObject: any): string =>
  scaledObject.spec?.advanced?.horizontalPodAutoscalerConfig?.name || `keda-hpa-${scaledObject.metadata.name}`;

/**
 * The merge patch that makes an applied ScaledObject run here: each `prometheus` trigger's serverAddress (the
 * in-cluster Prometheus of the output, which does not resolve here) pointed at verify's Prometheus, and its HPA
 * behavior, pollingInterval and cooldownPeriod divided by `timeScale`, as an HPA's are. With `wake`, the query of the
 * `wake` trigger (SCALE_TO_ZERO_TRIGGERS) is replaced by that constant (`vector(1)` wakes the target): verify plays the wake signal, whose
 * series (a caller's queue) it cannot know.
 */
export function scaledObjectPatch(scaledObject: any, prometheusUrl: string, timeScale: number, wake?: number): { spec: Record<string, unknown> } {
  const spec = scaledObject.spec ?? {};
  const seconds = (n: number) => Math.max(1, Math.round(n / timeScale));
  const behavior = scaledBehavior(spec.advanced?.horizontalPodAutoscalerConfig?.behavior, timeScale);
  const played = (t: any) => (wake !== undefined && t.name === SCALE_TO_ZERO_TRIGGERS.wake ? { query: `vector(${wake})` } : {});
  return {
    spec: {
      triggers: (spec.triggers ?? []).map((t: any) => (t.type === 'prometheus'
        ? { ...t, metadata: { ...t.metadata, serverAddress: prometheusUrl, ...played(t) } } : t)),
      ...(behavior ? { advanced: { ...spec.advanced, horizontalPodAutoscalerConfig: { ...spec.advanced.horizontalPodAutoscalerConfig, behavior } } } : {}),
      ...(spec.pollingInterval !== undefined ? { pollingInterval: seconds(spec.pollingInterval) } : {}),
      ...(spec.cooldownPeriod !== undefined ? { cooldownPeriod: seconds(spec.cooldownPeriod) } : {}),
    },
  };
}

/**
 * The queries of a ScaledObject's `prometheus` triggers that return no series at `prometheusUrl`, each with why: KEDA's
 * own error for an empty result ("target may be lost") does not say which series is missing, the query does.
 */
export async function emptyQueries(scaledObject: any, prometheusUrl: string): Promise<string[]> {
  const empty: string[] = [];
  for (const t of (scaledObject.spec?.triggers ?? []).filter((x: any) => x.type === 'prometheus')) {
    const query = String(t.metadata?.query ?? '');
    const r = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`).then((x) => x.json() as Promise<any>, (e: Error) => ({ error: e.message }));
    if (r.status !== 'success') empty.push(`its trigger's query failed at verify's Prometheus (${r.error ?? 'no answer'}): ${query}`);
    else if (r.data.result.length === 0) empty.push(`its trigger's query returns no series at verify's Prometheus, which serves the Triton metric catalog: ${query}`);
  }
  return empty;
}

/** Starts the operator and the metrics server and waits until external.metrics.k8s.io is served; undefined, or what failed. */
export async function startKeda(plane: ControlPlane, binaries: Readonly<Record<string, string>>): Promise<string | undefined> {
  const certs = join(plane.workDir, 'keda-certs');
  try {
    mkdirSync(join(certs, 'ca'), { recursive: true });
    makeCertificates(binaries.openssl, {
      caSubject: '/O=KEDAORG/CN=KEDA', caKey: join(certs, 'ca', 'ca.key'), caCert: join(certs, 'ca.crt'),
      subject: '/CN=localhost', key: join(certs, 'tls.key'), cert: join(certs, 'tls.crt'),
      extensions: 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n',
    });
  } catch (e) {
    return `openssl could not make KEDA's certificates: ${(e as Error).message}`;
  }
  const namespace = KEDA_ADDON_DEFAULTS.kedaNamespace;
  const env = { WATCH_NAMESPACE: '', KEDA_CLUSTER_OBJECT_NAMESPACE: namespace, POD_NAMESPACE: namespace };
  const [grpcPort, securePort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  // Its /metrics and health endpoints are off ("0"): nothing reads them here.
  plane.start('keda-operator', binaries['keda-operator'], [
    `--kubeconfig=${plane.kubeconfig}`, '--leader-elect=false', '--enable-cert-rotation=false', `--cert-dir=${certs}`,
    `--metrics-service-bind-address=127.0.0.1:${grpcPort}`, '--metrics-bind-address=0', '--health-probe-bind-address=0',
  ], env);
  // Its own /metrics has no off switch and binds every interface (cmd/adapter/main.go RunMetricsServer): a free port.
  plane.start('keda-metrics-apiserver', binaries['keda-adapter'], [
    `--kubeconfig=${plane.kubeconfig}`, `--lister-kubeconfig=${plane.kubeconfig}`, `--authentication-kubeconfig=${plane.kubeconfig}`,
    `--authorization-kubeconfig=${plane.kubeconfig}`, `--secure-port=${securePort}`, '--bind-address=127.0.0.1', `--cert-dir=${certs}`,
    `--tls-cert-file=${join(certs, 'tls.crt')}`, `--tls-private-key-file=${join(certs, 'tls.key')}`,
    `--metrics-service-address=127.0.0.1:${grpcPort}`, `--port=${metricsPort}`,
  ], env);
  return serveAggregatedApi(plane, { service: 'triton-ops-verify-keda-metrics', port: securePort, group: 'external.metrics.k8s.io',
    versions: ['v1beta1'], server: 'keda-metrics-apiserver' });
}

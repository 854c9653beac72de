import { Testing, Yaml } from 'cdk8s';
import { ENDPOINT_PICKER_DEFAULTS } from '../../../lib/k8s/inference/endpoint-picker';
import { endpointPickerConfig } from '../../../lib/triton/endpoint-picker-config';
import { named, POOL, routedChart } from './inference-test-helpers';

// Sources (llm-d/llm-d-router @v0.10.0): config/charts/routerlib/templates/_deployment.yaml (DEP),
// config/charts/routerlib/templates/_service.yaml (SVC), config/charts/routerlib/values.yaml (VALUES).
const { chart } = routedChart();
const m = Testing.synth(chart);
const EPP = 'chat-epp';
const deployment = named(m, 'Deployment', EPP);
const pod = deployment.spec.template.spec;
const epp = pod.containers[0];
const SELECTOR = { 'app.kubernetes.io/name': 'endpoint-picker', 'app.kubernetes.io/instance': EPP };
const LABELS = { ...SELECTOR, 'app.kubernetes.io/component': 'endpoint-picker', 'app.kubernetes.io/managed-by': 'triton-ops' };

describe('EndpointPicker', () => {
  test('the release image of LDR v0.10.0', () => {
    // hack/push-chart.sh@v0.10.0 lines 25-45: registry ghcr.io/llm-d, repository llm-d-router-endpoint-picker, tag = the release.
    expect(ENDPOINT_PICKER_DEFAULTS.image).toBe('ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0');
    expect(epp).toMatchObject({ name: 'epp', image: ENDPOINT_PICKER_DEFAULTS.image, imagePullPolicy: 'IfNotPresent' });
  });

  test('args: the chart\'s pool, config and health flags, plaintext gRPC, no tracing, no token on /metrics', () => {
    // DEP lines 97-108 (pool name/namespace/group, zap encoder, config file), 113-115 (grpc health port), 118-119
    // (flags as --key=value: secure-serving), 121-125 (tracing), 126-128 (metrics-endpoint-auth). The EPP defaults
    // SecureServing and MetricsEndpointAuth to true (pkg/epp/server/options.go@v0.10.0 lines 153-154).
    expect(epp.args).toEqual([
      '--pool-name', 'chat',
      '--pool-namespace', 'inference',
      '--pool-group', 'inference.networking.k8s.io',
      '--zap-encoder', 'json',
      '--config-file', '/config/default-plugins.yaml',
      '--grpc-health-port', '9003',
      '--secure-serving=false',
      '--tracing=false',
      '--metrics-endpoint-auth=false',
    ]);
  });

  test('ports, gRPC probes on the health port, pod name and namespace from the downward API', () => {
    // DEP lines 133-139 (9002, 9003, 9090), 143-165 (probes, service inference-extension with one replica), 166-174 (env).
    expect(epp.ports).toEqual([
      { name: 'grpc-ext-proc', containerPort: 9002 }, { name: 'grpc-health', containerPort: 9003 }, { name: 'http-metrics', containerPort: 9090 },
    ]);
    expect(epp.livenessProbe).toEqual({ grpc: { port: 9003, service: 'inference-extension' }, initialDelaySeconds: 5, periodSeconds: 10 });
    expect(epp.readinessProbe).toEqual({ grpc: { port: 9003, service: 'inference-extension' }, periodSeconds: 2 });
    expect(epp.env).toEqual([
      { name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ]);
  });

  test('one replica, Recreate, the chart\'s grace period, its own service account', () => {
    // DEP lines 337-345 (replicas 1, Recreate), 12 (serviceAccountName), 14 (terminationGracePeriodSeconds 130).
    expect(deployment.metadata).toEqual({ name: EPP, namespace: 'inference', labels: LABELS });
    expect(deployment.spec).toMatchObject({ replicas: 1, strategy: { type: 'Recreate' }, selector: { matchLabels: SELECTOR } });
    expect(deployment.spec.template.metadata.labels).toEqual(LABELS);
    expect(pod.serviceAccountName).toBe(EPP);
    expect(pod.terminationGracePeriodSeconds).toBe(130);
  });

  test('the project\'s restricted pod security', () => {
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true, runAsUser: 10000, runAsGroup: 10000, fsGroup: 10000, fsGroupChangePolicy: 'OnRootMismatch', seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(epp.securityContext).toEqual({
      runAsNonRoot: true, runAsUser: 10000, runAsGroup: 10000, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false,
      privileged: false, capabilities: { drop: ['ALL'] },
    });
  });

  test('resources: 1 CPU and 1 GiB requested, 2 GiB memory limit, no CPU limit (the chart asks 8 CPUs, 8 GiB, VALUES lines 60-65)', () => {
    expect(epp.resources).toEqual({ requests: { cpu: '1000m', memory: '1024Mi' }, limits: { memory: '2048Mi' } });
  });

  test('the configuration document as YAML in its ConfigMap, mounted read-only at /config', () => {
    // _config.yaml@v0.10.0 line 8 (key default-plugins.yaml); DEP lines 203-205 and 280-282 (the mount and the volume).
    expect(named(m, 'ConfigMap', EPP).data).toEqual({ 'default-plugins.yaml': Yaml.stringify(endpointPickerConfig(POOL)) });
    expect(epp.volumeMounts).toEqual([{ name: 'config', mountPath: '/config', readOnly: true }]);
    expect(pod.volumes).toEqual([{ name: 'config', configMap: { name: EPP } }]);
  });

  test('a ClusterIP Service of the ext_proc port (h2c) and the metrics port', () => {
    // SVC lines 52-66.
    expect(named(m, 'Service', EPP).spec).toEqual({
      type: 'ClusterIP',
      selector: SELECTOR,
      ports: [
        { name: 'grpc-ext-proc', port: 9002, targetPort: 'grpc-ext-proc', protocol: 'TCP', appProtocol: 'kubernetes.io/h2c' },
        { name: 'http-metrics', port: 9090, targetPort: 'http-metrics', protocol: 'TCP' },
      ],
    });
  });

  test('RBAC: the chart\'s two Roles as one, bound to the picker\'s service account, namespaced only', () => {
    // config/charts/routerlib/templates/_rbac.yaml@v0.10.0 lines 42-52 (pods) and
    // config/charts/llm-d-router-gateway/templates/rbac.yaml@v0.10.0 lines 8-17 (objectives, rewrites, pools).
    const read = ['get', 'watch', 'list'];
    expect(named(m, 'Role', EPP).rules).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: read },
      { apiGroups: ['inference.networking.x-k8s.io'], resources: ['inferenceobjectives', 'inferencemodelrewrites'], verbs: read },
      { apiGroups: ['llm-d.ai'], resources: ['inferenceobjectives', 'inferencemodelrewrites'], verbs: read },
      { apiGroups: ['inference.networking.k8s.io'], resources: ['inferencepools'], verbs: read },
    ]);
    expect(named(m, 'RoleBinding', EPP)).toMatchObject({
      subjects: [{ kind: 'ServiceAccount', name: EPP, namespace: 'inference' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: EPP },
    });
    expect(named(m, 'ServiceAccount', EPP).metadata.namespace).toBe('inference');
    expect(m.filter((o) => o.kind.startsWith('Cluster'))).toEqual([]);
  });
});

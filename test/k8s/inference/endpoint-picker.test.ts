import { Testing, Yaml } from 'cdk8s';
import { Chart, Testing as T } from 'cdk8s';
import { EndpointPicker, ENDPOINT_PICKER_DEFAULTS, ENDPOINT_PICKER_STRATEGY } from '../../../lib/k8s/inference/endpoint-picker';
import { ENDPOINT_PICKER_REPLICAS, endpointPickerLeaseName, LEADER_ELECTION_FLAG } from '../../../lib/triton/routing/inference-pool-options';
import { describeCitedFacts } from '../../triton/cited-facts';
import { endpointPickerConfig } from '../../../lib/triton/routing/endpoint-picker-config';
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

  test("args: the chart's pool, config, leader-election and health flags, plaintext gRPC, no tracing, no token on /metrics", () => {
    // DEP lines 97-108 (pool name/namespace/group, zap encoder, config file), 110-112 (leader election with replicas > 1), 113-115 (grpc health port), 118-119
    // (flags as --key=value: secure-serving), 121-125 (tracing), 126-128 (metrics-endpoint-auth). The EPP defaults
    // SecureServing and MetricsEndpointAuth to true (pkg/epp/server/options.go@v0.10.0 lines 153-154).
    expect(epp.args).toEqual([
      '--pool-name', 'chat',
      '--pool-namespace', 'inference',
      '--pool-group', 'inference.networking.k8s.io',
      '--zap-encoder', 'json',
      '--config-file', '/config/default-plugins.yaml',
      '--ha-enable-leader-election',
      '--grpc-health-port', '9003',
      '--secure-serving=false',
      '--tracing=false',
      '--metrics-endpoint-auth=false',
    ]);
  });

  test('ports, gRPC probes on the health port, pod name and namespace from the downward API', () => {
    // DEP lines 133-139 (9002, 9003, 9090), 143-165 (probes: services liveness and readiness with replicas > 1), 166-174 (env).
    expect(epp.ports).toEqual([
      { name: 'grpc-ext-proc', containerPort: 9002 }, { name: 'grpc-health', containerPort: 9003 }, { name: 'http-metrics', containerPort: 9090 },
    ]);
    expect(epp.livenessProbe).toEqual({ grpc: { port: 9003, service: 'liveness' }, initialDelaySeconds: 5, periodSeconds: 10 });
    expect(epp.readinessProbe).toEqual({ grpc: { port: 9003, service: 'readiness' }, periodSeconds: 2 });
    expect(epp.env).toEqual([
      { name: 'NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ]);
  });

  test("a leader and a standby, new pods started while the old leader drains, the chart's grace period, its own service account", () => {
    // DEP lines 339-345: Recreate because a rollout that keeps one pod available can never delete the old leader (the
    // only ready pod); 100% unavailable lets it go, maxSurge 1 starts a new pod first. 12 (serviceAccountName), 14 (130 s).
    expect(ENDPOINT_PICKER_DEFAULTS.replicas).toBe(2);
    expect(deployment.metadata).toEqual({ name: EPP, namespace: 'inference', labels: LABELS });
    expect(deployment.spec).toMatchObject({
      replicas: 2, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '100%' } }, selector: { matchLabels: SELECTOR },
    });
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

  test('resources: 1 CPU and 1 GiB requested, 2 GiB memory limit, a CPU limit at the chart\'s request of 8 CPUs (VALUES lines 60-65; CHECKLIST R02, checkov CKV_K8S_11)', () => {
    expect(ENDPOINT_PICKER_DEFAULTS.resources).toEqual({ cpuMillis: 1000, cpuLimitMillis: 8000, memoryMiB: 1024, memoryLimitMiB: 2048 });
    expect(epp.resources).toEqual({ requests: { cpu: '1000m', memory: '1024Mi' }, limits: { cpu: '8000m', memory: '2048Mi' } });
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

  test('never two replicas on one node (DoNotSchedule), spread over zones where it can (ScheduleAnyway)', () => {
    expect(pod.topologySpreadConstraints).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone'].map((topologyKey) => ({
      maxSkew: 1, topologyKey, whenUnsatisfiable: topologyKey === 'kubernetes.io/hostname' ? 'DoNotSchedule' : 'ScheduleAnyway', labelSelector: { matchLabels: SELECTOR },
    })));
  });

  test('no PodDisruptionBudget: only the leader is ever ready, so a protecting budget would allow no eviction of it', () => {
    expect(m.filter((o) => o.kind === 'PodDisruptionBudget' && o.metadata.name === EPP)).toEqual([]);
  });

  test.each([
    [undefined, 2], [3, 3], [5, 5],
  ])('replicas %p -> %p pods, leader election on', (replicas, expected) => {
    const c = new Chart(T.app(), 'c', { namespace: 'inference' });
    new EndpointPicker(c, 'Picker', { name: 'p-epp', namespace: 'inference', poolName: 'p', config: {}, replicas });
    const d = named(T.synth(c), 'Deployment', 'p-epp');
    expect(d.spec.replicas).toBe(expected);
    expect(d.spec.template.spec.containers[0].args).toContain(LEADER_ELECTION_FLAG);
  });

  test.each([
    [1, "c/Picker: 'replicas' (1) leaves the pool with no endpoint picker on every rollout, node drain or eviction of the one replica",
      'use at least 2 (one leads, the others stand by)'],
    [6, "c/Picker: 'replicas' (6) is more than 5 endpoint pickers", 'use 2 to 5'],
    [2.5, "c/Picker: 'replicas' (2.5) is not a whole number of endpoint picker replicas", 'use 2 to 5'],
  ])('replicas %p is refused with the path, the value and the fix', (replicas, what, fix) => {
    const build = () => new EndpointPicker(new Chart(T.app(), 'c', { namespace: 'inference' }), 'Picker', { name: 'p-epp', namespace: 'inference', poolName: 'p', config: {}, replicas });
    expect(build).toThrow(what);
    expect(build).toThrow(fix);
  });

  test("RBAC: the chart's two Roles as one, bound to the picker's service account, namespaced only", () => {
    // config/charts/routerlib/templates/_rbac.yaml@v0.10.0 lines 42-52 (pods) and
    // config/charts/llm-d-router-gateway/templates/rbac.yaml@v0.10.0 lines 8-17 (objectives, rewrites, pools).
    const read = ['get', 'watch', 'list'];
    expect(named(m, 'Role', EPP).rules).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: read },
      { apiGroups: ['inference.networking.x-k8s.io'], resources: ['inferenceobjectives', 'inferencemodelrewrites'], verbs: read },
      { apiGroups: ['llm-d.ai'], resources: ['inferenceobjectives', 'inferencemodelrewrites'], verbs: read },
      { apiGroups: ['inference.networking.k8s.io'], resources: ['inferencepools'], verbs: read },
      // Leader election: create a Lease, get and update the pool's own (client-go's Lease lock; no list, watch, patch,
      // delete or events, which the chart's _leader-election-rbac.yaml@v0.10.0 lines 12-17 also grants).
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['epp-inference-chat.llm-d.ai'], verbs: ['get', 'update'] },
    ]);
    expect(named(m, 'RoleBinding', EPP)).toMatchObject({
      subjects: [{ kind: 'ServiceAccount', name: EPP, namespace: 'inference' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: EPP },
    });
    expect(named(m, 'ServiceAccount', EPP).metadata.namespace).toBe('inference');
    expect(m.filter((o) => o.kind.startsWith('Cluster'))).toEqual([]);
  });
});

describeCitedFacts('endpoint picker leader election (LDR v0.10.0 with its controller-runtime and client-go)', [
  { fact: 'the flag that turns leader election on', value: LEADER_ELECTION_FLAG, upstream: '--ha-enable-leader-election',
    source: 'llm-d/llm-d-router:pkg/epp/server/options.go@v0.10.0 line 165' },
  { fact: 'the chart passes it whenever replicas > 1', value: LEADER_ELECTION_FLAG, upstream: '--ha-enable-leader-election',
    source: 'llm-d/llm-d-router:config/charts/routerlib/templates/_deployment.yaml@v0.10.0 lines 110-112' },
  { fact: 'the Lease: epp-<pool namespace>-<pool name>.llm-d.ai in the pool namespace, released on shutdown',
    value: endpointPickerLeaseName('inference', 'chat'), upstream: 'epp-inference-chat.llm-d.ai',
    source: 'llm-d/llm-d-router:pkg/epp/server/controller_manager.go@v0.10.0 lines 109-115' },
  { fact: 'health services under leader election: liveness and readiness',
    value: ENDPOINT_PICKER_DEFAULTS.healthServices, upstream: { liveness: 'liveness', readiness: 'readiness' },
    source: 'llm-d/llm-d-router:cmd/epp/runner/health.go@v0.10.0 lines 50-53; llm-d/llm-d-router:config/charts/routerlib/templates/_deployment.yaml@v0.10.0 lines 143-165' },
  { fact: 'readiness passes on the synced leader only (a standby stays out of the Service)',
    value: 'isLive && isLeader && protocolMatches && pluginsReady && !draining', upstream: 'isLive && isLeader && protocolMatches && pluginsReady && !draining',
    source: 'llm-d/llm-d-router:cmd/epp/runner/health.go@v0.10.0 lines 82-84' },
  { fact: 'liveness passes on every replica (a standby is not restarted for not leading)', value: true, upstream: true,
    source: 'llm-d/llm-d-router:cmd/epp/runner/health.go@v0.10.0 lines 90-96' },
  { fact: "standbys keep the pool's pods read (haPopulateNonLeaderDatastore, on by default)", value: true, upstream: true,
    source: 'llm-d/llm-d-router:cmd/epp/runner/runner.go@v0.10.0 line 753; llm-d/llm-d-router:pkg/epp/server/controller_config.go@v0.10.0 lines 28-33' },
  { fact: 'on SIGTERM the leader goes NOT_SERVING, releases the Lease and keeps serving ext_proc for the 30 s drain window',
    value: 30, upstream: 30,
    source: 'llm-d/llm-d-router:cmd/epp/runner/runner.go@v0.10.0 lines 279-285; llm-d/llm-d-router:pkg/epp/server/options.go@v0.10.0 line 43' },
  { fact: "the chart's reason for Recreate: a rollout keeping one pod available cannot delete the old leader",
    value: ENDPOINT_PICKER_STRATEGY.rollingUpdate?.maxUnavailable?.value, upstream: '100%',
    source: 'llm-d/llm-d-router:config/charts/routerlib/templates/_deployment.yaml@v0.10.0 lines 339-345' },
  { fact: "client-go's Lease lock gets, creates and updates the Lease", value: ['get', 'create', 'update'], upstream: ['get', 'create', 'update'],
    source: 'kubernetes/client-go:tools/leaderelection/resourcelock/leaselock.go@v0.35.7 lines 43, 68, 89' },
  { fact: 'the leader_election_master_status gauge: 0 from the start on every replica, 1 on the leader',
    value: 'leader_election_master_status', upstream: 'leader_election_master_status',
    source: 'kubernetes-sigs/controller-runtime:pkg/metrics/leaderelection.go@v0.23.3 lines 13-16, 37-43; kubernetes/client-go:tools/leaderelection/leaderelection.go@v0.35.7 lines 112, 271' },
  { fact: 'controller-runtime leases: retry every 2 s, a Lease not renewed expires after 15 s', value: { retry: 2, lease: 15 }, upstream: { retry: 2, lease: 15 },
    source: 'kubernetes-sigs/controller-runtime:pkg/manager/internal.go@v0.23.3 lines 54-56' },
  { fact: 'active-passive is the HA mode for in-memory state such as the prefix index', value: ENDPOINT_PICKER_REPLICAS.min, upstream: 2,
    source: 'llm-d/llm-d-router:config/charts/README.md@v0.10.0 lines 109-113' },
]);

import { k8s } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { principalOf } from '../../triton/routing/mesh-identity';
import { isWhole } from '../../private/checks';
import { Problems, show } from '../../private/errors';
import { checkImage } from '../../private/image-reference';
import { DNS_LABEL, DNS_SUBDOMAIN } from '../../private/kubernetes-names';
import { LlmBackend } from '../../triton/llm/llm-backends';
import { flagInRelease, tritonImageRelease } from '../../triton/releases/triton-releases';
import { GRPC_PORT, hasPort, HTTP_PORT, OPENAI_PORT, TritonPort } from '../../triton/serving/server-ports';
import { LOAD_TEST_APP_NAME, MANAGED_BY } from '../labels';
import { IRSA_ANNOTATION } from '../model-repository';
import { RESTRICTED_CONTAINER_SPEC, RESTRICTED_POD_SPEC } from '../pod-security';
import { dnsEgress, tcp } from '../triton-network-policy';
import { LoadSweep } from '../../triton/serving/load-sweep';
import {
  HF_OFFLINE_ENV, LoadCommandSpec, loadScript, OWNED_FLAGS, POD_NAME_ENV, RESULTS_PATH, TOKENIZER_PATH, uploadScript,
} from './load-test-command';
import {
  LOAD_TEST_PROTOCOLS, LOAD_TEST_TOOLS, LoadTestProtocol, LoadTestTool, loadTestName, TokenLengths, TRITON_LOAD_TEST_DEFAULTS, TritonLoadTestOptions,
} from '../../triton/serving/load-test-options';
import type { ITritonServer } from '../triton-server-ref';
import { placeOf } from '../../private/construct-place';

export interface TritonLoadTestProps extends TritonLoadTestOptions {
  /** The server to load; the Job runs in its namespace and calls its Service. */
  readonly server: ITritonServer;
}

/** Name of the load generator container (the first container). */
const LOAD_TEST_CONTAINER = 'load-test';
/** Name of the S3 uploader container. */
const UPLOAD_CONTAINER = 'upload';
/**
 * Pod annotation that makes Istio start the load generator only once its sidecar is ready (Istio >= 1.8, the
 * `proxy.istio.io/config` ProxyConfig override); without it the first requests fail while the sidecar starts.
 * @see https://istio.io/latest/docs/reference/config/istio.mesh.v1alpha1/#ProxyConfig
 */
export const ISTIO_PROXY_CONFIG: Readonly<Record<string, string>> = Object.freeze({
  'proxy.istio.io/config': '{"holdApplicationUntilProxyStarts":true}',
});

/**
 * A Kubernetes Job that load-tests one model of a TritonServer with the Triton SDK image: perf_analyzer
 * (`--concurrency-range` / `--request-rate-range`) or, for LLMs, genai-perf (one `profile` run per level), writing
 * its results to a PersistentVolumeClaim or S3. The flags and their sources are listed in load-test-command.ts.
 *
 * Run only when asked: the Job is created with `spec.suspend: true` and starts when unsuspended:
 * `kubectl -n <namespace> patch job <name> -p '{"spec":{"suspend":false}}'` (or `run: true` creates it running).
 * A GitOps tool that self-heals would suspend it again (suspending a running Job deletes its pod): set `run: true` in
 * a commit instead, or ignore `/spec/suspend` in the tool. A Job's pod template is immutable: a change of props
 * needs the Job replaced (delete it, or Argo CD's `Replace=true`); that also runs the test again.
 * - `backoffLimit: 0`: a load test is not retried; a second attempt would measure a server the first one loaded.
 * - `activeDeadlineSeconds`: from the sweep (see the prop), so that a stuck test (a server that never answers, an
 *   uploader that never starts) ends as Failed instead of holding its pod.
 * - `ttlSecondsAfterFinished` is not set: a GitOps tool would recreate a Job the TTL controller deleted, and so run
 *   the test again; the finished Job and its logs stay until it is deleted.
 *
 * Results: each run writes to `/results/<pod name>/` (perf_analyzer's CSV report `-f`, genai-perf's artifact
 * directory per level, and `exit-code`). With `LoadTestResults.toClaim` that is the PVC. With
 * `LoadTestResults.toS3`, `/results` is an emptyDir and a second container (`upload`, a pinned aws-cli image) waits
 * for `exit-code`, then `aws s3 cp --recursive` copies the run to `s3://<bucket>/<prefix>/<pod name>/` with IRSA
 * credentials (the role ARN annotated on the Job's ServiceAccount; static keys are never accepted). The load
 * generator waits for the upload, so the pod fails when the test or the upload failed. Two containers instead of an
 * init container: an init container has no network under a classic Istio sidecar.
 *
 * The pod runs in the server's namespace, which the server's NetworkPolicy admits. perf_analyzer (genai-perf too,
 * through it) reads the model's configuration and statistics before and during a run, which the server fences: the
 * server must list the Job's ServiceAccount in `modelConfigReaders` (a fleet does so for its `loadTest`), so that
 * Triton leaves model-config unfenced and TritonAuthorization admits this identity alone to both.
 *
 * Istio: a Job's pod never completes while a classic sidecar runs. The pod asks Istio to start the load generator
 * after the sidecar (`holdApplicationUntilProxyStarts`), and the last container to finish, the load generator,
 * ends the sidecar with a POST to pilot-agent's `/quitquitquit` (port 15020). This works on every Istio since 1.8
 * and on Kubernetes 1.28, where native sidecar containers are still alpha; with Istio's native sidecars the call is
 * harmless, and without Istio it fails at once and is ignored. MeshSecurity's NetworkPolicy lets the sidecar reach
 * istiod, as it does for the servers.
 *
 * Security (CHECKLIST): no GPU is requested; uid/gid 10000 like the server, runAsNonRoot, read-only root filesystem
 * with a /tmp emptyDir (HOME), every capability dropped, no privilege escalation, seccomp RuntimeDefault, a dedicated
 * ServiceAccount without token, CPU and memory requests and limits, a NetworkPolicy with no ingress and egress only
 * to DNS, the server's serving port and, for S3, HTTPS.
 *
 * Nothing is downloaded at run time: genai-perf reads its tokenizer (`tokenizer`, required for genai-perf) from a
 * directory of the results claim or of `tokenizerClaim` (mounted read-only at /tokenizer), and the load generator runs
 * with `HF_HUB_OFFLINE=1`, so a tokenizer missing from its path fails the run at once.
 */
export class TritonLoadTest extends Construct {
  /** Name of the Job, ServiceAccount and NetworkPolicy. */
  public readonly name: string;
  public readonly namespace: string;
  public readonly tool: LoadTestTool;
  public readonly protocol: LoadTestProtocol;
  public readonly model: string;
  public readonly sweep: LoadSweep;
  /** The deadline written to the Job. */
  public readonly activeDeadlineSeconds: number;
  /** The identity the pod presents to the mesh; the server's `modelConfigReaders` must list it. */
  public readonly serviceAccountRef: { readonly namespace: string; readonly name: string };
  /** Escape hatches: the underlying objects. */
  public readonly job: k8s.KubeJob;
  public readonly serviceAccount: k8s.KubeServiceAccount;
  public readonly networkPolicy: k8s.KubeNetworkPolicy;

  public constructor(scope: Construct, id: string, props: TritonLoadTestProps) {
    super(scope, id);
    const D = TRITON_LOAD_TEST_DEFAULTS;
    const { server } = props;
    const p = new Problems(placeOf(this));

    this.namespace = server.namespace;
    this.name = loadTestName(server.name, props.name);
    this.model = props.model;
    // A server behind Triton's OpenAI-compatible frontend speaks the OpenAI API only, which genai-perf drives over HTTP.
    const openAi = hasPort(server.ports, OPENAI_PORT);
    this.tool = props.tool ?? (server.llmBackends.length > 0 || openAi ? 'genai-perf' : 'perf_analyzer');
    this.protocol = props.protocol ?? (openAi ? 'http' : this.tool === 'genai-perf' || server.grpc ? 'grpc' : 'http');
    this.sweep = props.sweep ?? LoadSweep.concurrency({ start: D.sweep.start, end: D.sweep.end, step: D.sweep.step });
    const interval = props.measurementIntervalMs ?? D.measurementIntervalMs;
    const results = props.results.destination;
    const streaming = server.decoupledModels.includes(props.model);
    const extraArgs = props.extraArgs ?? [];
    const cpuRequest = props.cpuRequestMillis ?? D.cpuRequestMillis;
    const cpuLimit = props.cpuLimitMillis ?? D.cpuLimitMillis;
    const memory = props.memoryMiB ?? D.memoryMiB;

    const { defaultDeadline, llmBackend } = this.checkProps(p, props, { openAi, streaming, interval, extraArgs, cpuRequest, cpuLimit, memory });
    this.activeDeadlineSeconds = props.activeDeadlineSeconds ?? defaultDeadline;
    p.throwIfAny();

    const servingPort = openAi ? OPENAI_PORT : this.protocol === 'grpc' ? GRPC_PORT : HTTP_PORT;
    const stability = props.stabilityPercentage;
    const spec: LoadCommandSpec = {
      tool: this.tool, model: props.model, url: `${server.host}:${servingPort.port}`, protocol: this.protocol, streaming,
      sweep: this.sweep, measurementIntervalMs: interval, stabilityPercentage: stability, batchSize: props.batchSize,
      inputTokens: props.inputTokens, outputTokens: props.outputTokens, tokenizer: props.tokenizer, llmBackend,
      openAi: openAi ? {
        explicitServiceKind: flagInRelease('genai-perf', '--service-kind', tritonImageRelease(props.sdkImage)!.release),
        // Chat needs the frontend's tokenizer (its chat template); completions take the prompt as it is.
        endpointType: server.openAiChat ? 'chat' : 'completions',
      } : undefined,
      extraArgs, upload: results.kind === 's3',
    };

    const selector = { 'app.kubernetes.io/name': LOAD_TEST_APP_NAME, 'app.kubernetes.io/instance': this.name };
    const labels = { ...selector, 'app.kubernetes.io/component': 'load-test', ...MANAGED_BY };
    const metadata = { name: this.name, namespace: this.namespace, labels };
    this.serviceAccountRef = Object.freeze({ namespace: this.namespace, name: this.name });

    this.serviceAccount = new k8s.KubeServiceAccount(this, 'ServiceAccount', {
      metadata: { ...metadata, ...(results.kind === 's3' ? { annotations: { [IRSA_ANNOTATION]: results.roleArn } } : {}) },
      automountServiceAccountToken: false,
    });

    const containers = this.containers(props, loadScript(spec), cpuRequest, cpuLimit, memory);

    this.job = this.jobOf(props, metadata, labels, containers);

    this.networkPolicy = this.networkPolicyOf(props, metadata, selector, servingPort);
  }

  /** Every prop checked together; the deadline a valid sweep gets by default, and the LLM backend of the tool's options. */
  private checkProps(p: Problems, props: TritonLoadTestProps, r: {
    readonly openAi: boolean; readonly streaming: boolean; readonly interval: number; readonly extraArgs: readonly string[];
    readonly cpuRequest: number; readonly cpuLimit: number; readonly memory: number;
  }) {
    const D = TRITON_LOAD_TEST_DEFAULTS;
    const { server } = props;
    const { openAi, streaming, interval, extraArgs, cpuRequest, cpuLimit, memory } = r;
    p.check(DNS_LABEL.test(this.name), 'name', this.name,
      props.name === undefined ? `(the default, '<server name>-load-test') is not a valid Job name (an RFC 1123 label of at most 63 characters)`
        : 'is not a valid Job name (an RFC 1123 label of at most 63 characters)',
      "give a name of at most 63 lowercase letters, digits and -, e.g. 'ranker-load-test'");
    p.check(server.modelNames.includes(props.model), 'model', props.model, `is not a model of server '${server.name}'`,
      `use one of ${show(server.modelNames)}`);
    checkImage(p, 'sdkImage', props.sdkImage);
    props.results.check(p, 'results');
    const toolOk = LOAD_TEST_TOOLS.includes(this.tool);
    p.check(toolOk, 'tool', this.tool, 'is not a load generator of the SDK image', "use 'perf_analyzer' or 'genai-perf'");
    const protocolOk = LOAD_TEST_PROTOCOLS.includes(this.protocol);
    p.check(protocolOk, 'protocol', this.protocol, 'is not a Triton protocol', "use 'grpc' or 'http'");
    if (toolOk && protocolOk) {
      if (openAi) this.checkOpenAi(p, props);
      else this.checkProtocol(p, props, streaming);
    }
    const sweepOk = this.sweep.check(p, 'sweep');
    p.check(isWhole(interval, D.minMeasurementIntervalMs, D.maxMeasurementIntervalMs), 'measurementIntervalMs', interval,
      `must be a whole number of milliseconds from ${D.minMeasurementIntervalMs} to ${D.maxMeasurementIntervalMs}`,
      `use e.g. ${D.measurementIntervalMs}`);
    const stability = props.stabilityPercentage;
    p.check(stability === undefined || (Number.isFinite(stability) && stability > 0), 'stabilityPercentage', stability,
      'must be a number > 0', 'use e.g. 10, or leave it unset for the tool default');
    const llmBackend = toolOk ? this.checkToolOptions(p, props, openAi) : undefined;
    this.checkExtraArgs(p, extraArgs);
    p.check(isWhole(cpuRequest, 1), 'cpuRequestMillis', cpuRequest, 'must be a whole number >= 1', `use e.g. ${D.cpuRequestMillis}`);
    p.check(isWhole(cpuLimit, 1), 'cpuLimitMillis', cpuLimit, 'must be a whole number >= 1', `use e.g. ${D.cpuLimitMillis}`);
    if (isWhole(cpuRequest, 1) && isWhole(cpuLimit, 1)) {
      p.check(cpuRequest <= cpuLimit, 'cpuRequestMillis', cpuRequest, `must not exceed cpuLimitMillis (${cpuLimit})`,
        `lower it to at most ${cpuLimit} or raise cpuLimitMillis`);
    }
    p.check(isWhole(memory, 1), 'memoryMiB', memory, 'must be a whole number >= 1', `use e.g. ${D.memoryMiB}`);
    const defaultDeadline = sweepOk
      ? D.startupMarginSeconds + this.sweep.levels.length
        * (Math.ceil(D.maxTrialsPerLevel * D.trialWindowFactor * interval / 1000) + server.longestRequestSeconds)
      : 0;
    p.check(props.activeDeadlineSeconds === undefined || isWhole(props.activeDeadlineSeconds, 1), 'activeDeadlineSeconds',
      props.activeDeadlineSeconds, 'must be a whole number >= 1',
      sweepOk ? `leave it unset (${defaultDeadline} s for this sweep) or give a whole number of seconds` : 'give a whole number of seconds');
    // perf_analyzer (and genai-perf through it) reads the model's config first: the server must admit this Job to it.
    // Over the OpenAI API genai-perf reads nothing but the completions.
    const principal = principalOf({ namespace: this.namespace, name: this.name });
    p.check(openAi || !DNS_LABEL.test(this.name) || server.modelConfigReaders.includes(principal), 'server', server.name,
      `does not admit this load test's service account ('${this.namespace}/${this.name}') to its model-config API, which `
      + 'perf_analyzer reads before it sends load; the first call would be refused',
      `give the server modelConfigReaders: [{ namespace: '${this.namespace}', name: '${this.name}' }]`);
    return { defaultDeadline, llmBackend };
  }

  /** The load generator's container and, when results go to S3, the uploader's. */
  private containers(props: TritonLoadTestProps, script: string, cpuRequest: number, cpuLimit: number, memory: number): k8s.Container[] {
    const D = TRITON_LOAD_TEST_DEFAULTS;
    const results = props.results.destination;
    const env: k8s.EnvVar[] = [
      { name: 'HOME', value: '/tmp' },
      { name: POD_NAME_ENV, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ];
    const mounts: k8s.VolumeMount[] = [{ name: 'tmp', mountPath: '/tmp' }, { name: 'results', mountPath: RESULTS_PATH }];
    const tokenizerClaim = props.tokenizerClaim;
    const tokenizerMounts: k8s.VolumeMount[] = tokenizerClaim === undefined ? [] : [{ name: 'tokenizer', mountPath: TOKENIZER_PATH, readOnly: true }];
    const resources = (cpuReq: number, cpuLim: number, memMiB: number): k8s.ResourceRequirements => ({
      requests: { cpu: k8s.Quantity.fromString(`${cpuReq}m`), memory: k8s.Quantity.fromString(`${memMiB}Mi`) },
      limits: { cpu: k8s.Quantity.fromString(`${cpuLim}m`), memory: k8s.Quantity.fromString(`${memMiB}Mi`) },
    });

    const containers: k8s.Container[] = [{
      name: LOAD_TEST_CONTAINER,
      image: props.sdkImage,
      imagePullPolicy: 'IfNotPresent',
      command: ['/bin/sh', '-c', script],
      workingDir: '/tmp',
      // Nothing is downloaded at run time: a tokenizer missing from its path fails at once.
      env: [...env, ...Object.entries(HF_OFFLINE_ENV).map(([name, value]) => ({ name, value }))],
      resources: resources(cpuRequest, cpuLimit, memory),
      securityContext: RESTRICTED_CONTAINER_SPEC,
      volumeMounts: [...mounts, ...tokenizerMounts],
    }];
    if (results.kind === 's3') {
      containers.push({
        name: UPLOAD_CONTAINER,
        image: results.awsCliImage,
        imagePullPolicy: 'IfNotPresent',
        command: ['/bin/sh', '-c', uploadScript(results.bucket, results.prefix)],
        workingDir: '/tmp',
        env: [...env, { name: 'AWS_REGION', value: results.region }, { name: 'AWS_DEFAULT_REGION', value: results.region }],
        resources: resources(D.uploaderCpuRequestMillis, D.uploaderCpuLimitMillis, D.uploaderMemoryMiB),
        securityContext: RESTRICTED_CONTAINER_SPEC,
        volumeMounts: mounts,
      });
    }
    return containers;
  }

  /** The Job: suspended unless `run`, never retried, its results in a claim or on an emptyDir the uploader reads. */
  private jobOf(props: TritonLoadTestProps, metadata: k8s.ObjectMeta, labels: Record<string, string>, containers: k8s.Container[]): k8s.KubeJob {
    const D = TRITON_LOAD_TEST_DEFAULTS;
    const results = props.results.destination;
    const tokenizerClaim = props.tokenizerClaim;
    return new k8s.KubeJob(this, 'Job', {
      metadata,
      spec: {
        suspend: !(props.run ?? D.run),
        backoffLimit: D.backoffLimit,
        activeDeadlineSeconds: this.activeDeadlineSeconds,
        template: {
          metadata: { labels, annotations: { ...ISTIO_PROXY_CONFIG } },
          spec: {
            restartPolicy: 'Never',
            serviceAccountName: this.name,
            automountServiceAccountToken: false,
            securityContext: RESTRICTED_POD_SPEC,
            containers,
            volumes: [
              { name: 'tmp', emptyDir: { sizeLimit: k8s.Quantity.fromString(`${D.tmpSizeMiB}Mi`) } },
              results.kind === 'claim'
                ? { name: 'results', persistentVolumeClaim: { claimName: results.claimName, readOnly: false } }
                : { name: 'results', emptyDir: { sizeLimit: k8s.Quantity.fromString(`${D.resultsSizeMiB}Mi`) } },
              ...(tokenizerClaim === undefined ? []
                : [{ name: 'tokenizer', persistentVolumeClaim: { claimName: tokenizerClaim, readOnly: true } }]),
            ],
          },
        },
      },
    });
  }

  /** Egress to DNS, the server's serving port and, for S3 results, HTTPS; no ingress. */
  private networkPolicyOf(props: TritonLoadTestProps, metadata: k8s.ObjectMeta, selector: Record<string, string>, servingPort: TritonPort) {
    const results = props.results.destination;
    // HTTPS for S3 only: the tokenizer is read from a claim.
    const https = results.kind === 's3';
    return new k8s.KubeNetworkPolicy(this, 'NetworkPolicy', {
      metadata,
      spec: {
        podSelector: { matchLabels: selector },
        policyTypes: ['Ingress', 'Egress'],
        egress: [
          dnsEgress(),
          { to: [{ podSelector: { matchLabels: { ...props.server.selectorLabels } } }], ports: [tcp(servingPort.port)] },
          ...(https ? [{ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }], ports: [tcp(443)] }] : []),
        ],
      },
    });
  }

  /**
   * The OpenAI API: genai-perf over HTTP, since perf_analyzer speaks only Triton's KServe API, which the server does not
   * serve; the SDK image's release decides genai-perf's flags, so it must be known.
   */
  private checkOpenAi(p: Problems, props: TritonLoadTestProps) {
    const name = props.server.name;
    p.check(this.tool === 'genai-perf', 'tool', this.tool,
      `speaks Triton's KServe API, which server '${name}' does not serve (it runs the OpenAI-compatible frontend)`,
      "use tool 'genai-perf', which drives the OpenAI API, or leave it unset");
    p.check(this.protocol === 'http', 'protocol', this.protocol,
      `is not served by server '${name}': its OpenAI-compatible frontend answers HTTP only`, "remove protocol or set it to 'http'");
    p.check(tritonImageRelease(props.sdkImage) !== undefined, 'sdkImage', props.sdkImage,
      "has no Triton release tag, which decides genai-perf's flags for the OpenAI API (its --service-kind went away in 25.04)",
      "give the SDK image by its NGC release tag, e.g. 'nvcr.io/nvidia/tritonserver:25.08-py3-sdk'");
  }

  /** gRPC where the server serves it; gRPC streaming for decoupled models and for genai-perf. */
  private checkProtocol(p: Problems, props: TritonLoadTestProps, streaming: boolean) {
    const { server } = props;
    if (this.tool === 'genai-perf') {
      if (this.protocol !== 'grpc') {
        p.check(false, 'protocol', this.protocol,
          "is not what genai-perf speaks: with Triton it always runs perf_analyzer over gRPC ('-i grpc --streaming')",
          "remove protocol or set it to 'grpc'");
        return;
      }
    }
    if (this.protocol === 'grpc') {
      const given = props.protocol !== undefined ? 'protocol' : 'tool';
      p.check(server.grpc, given, given === 'protocol' ? this.protocol : this.tool,
        `needs gRPC, which server '${server.name}' does not serve`,
        given === 'protocol' ? "enable gRPC on the server or set protocol to 'http'" : "enable gRPC on the server or use tool 'perf_analyzer' over HTTP");
    } else if (streaming) {
      p.check(false, 'protocol', this.protocol,
        `cannot load model '${props.model}': it is decoupled and perf_analyzer needs gRPC streaming ('--streaming') for it`,
        server.grpc ? "set protocol to 'grpc' or leave it unset" : "enable gRPC on the server and set protocol to 'grpc'");
    }
  }

  /** Options of one tool are refused for the other; returns genai-perf's --backend. */
  private checkToolOptions(p: Problems, props: TritonLoadTestProps, openAi: boolean): LlmBackend | undefined {
    const { server } = props;
    if (this.tool === 'perf_analyzer') {
      const genaiOnly: [string, unknown][] = [['inputTokens', props.inputTokens], ['outputTokens', props.outputTokens],
        ['tokenizer', props.tokenizer], ['tokenizerClaim', props.tokenizerClaim], ['llmBackend', props.llmBackend]];
      for (const [prop, value] of genaiOnly) {
        p.check(value === undefined, prop, value, 'is a genai-perf option and the tool is perf_analyzer',
          server.llmBackends.length > 0 ? "remove it or set tool to 'genai-perf'" : 'remove it');
      }
      const b = props.batchSize;
      p.check(b === undefined || isWhole(b, 1), 'batchSize', b, 'must be a whole number >= 1',
        "use 1 for a model without batching (max_batch_size 0), or at most the model's max_batch_size");
      return undefined;
    }
    p.check(props.batchSize === undefined, 'batchSize', props.batchSize,
      'is a perf_analyzer option: genai-perf sends one prompt per request to an LLM', "remove it or set tool to 'perf_analyzer'");
    this.checkTokens(p, 'inputTokens', props.inputTokens);
    this.checkTokens(p, 'outputTokens', props.outputTokens);
    this.checkTokenizer(p, props);
    if (openAi) {
      p.check(props.llmBackend === undefined, 'llmBackend', props.llmBackend,
        `picks genai-perf's Triton service kind, but server '${server.name}' serves the OpenAI API`, 'remove it');
      return undefined;
    }
    const backends = server.llmBackends;
    if (backends.length === 0) {
      p.check(false, 'tool', this.tool, `drives only vLLM and TensorRT-LLM models, and server '${server.name}' serves none`,
        "use tool 'perf_analyzer'");
      return undefined;
    }
    const given = props.llmBackend;
    if (given === undefined) {
      p.check(backends.length === 1, 'llmBackend', given, `must be given: server '${server.name}' has models of ${show(backends)}`,
        `set it to the backend of model '${props.model}', one of ${show(backends)}`);
      return backends[0];
    }
    p.check(backends.includes(given), 'llmBackend', given,
      `is not an LLM backend of server '${server.name}'`, `use one of ${show(backends)} or leave it unset`);
    return given;
  }

  /**
   * genai-perf reads its tokenizer from a directory of the pod: the results claim (`/results/...`) or the tokenizer
   * claim (`/tokenizer/...`), never from the Hugging Face Hub.
   */
  private checkTokenizer(p: Problems, props: TritonLoadTestProps) {
    const { tokenizer: t, tokenizerClaim: claim, results } = props;
    const claimResults = results.destination.kind === 'claim';
    const root = claim !== undefined ? TOKENIZER_PATH : RESULTS_PATH;
    const example = `'${root}/tokenizers/llama-3.1'`;
    if (claim !== undefined) {
      p.check(DNS_SUBDOMAIN.test(claim), 'tokenizerClaim', claim, 'is not a valid PersistentVolumeClaim name',
        "give the name of the claim that holds the tokenizer, e.g. 'model-repository'");
    }
    if (t === undefined) {
      p.check(false, 'tokenizer', t, 'must be given for genai-perf, which would otherwise download a tokenizer named after '
        + 'the model from the Hugging Face Hub when the Job runs (the Job downloads nothing)',
        claim === undefined && !claimResults
          ? `set tokenizerClaim to a claim that holds the model's tokenizer and tokenizer to its directory under ${TOKENIZER_PATH}, e.g. '${TOKENIZER_PATH}/llama-3.1'`
          : `copy the model's tokenizer files into the claim and give their directory, e.g. ${example}`);
      return;
    }
    const under = (dir: string) => t.startsWith(`${dir}/`) && /^(\/[\w.-]+)+$/.test(t) && !t.split('/').includes('..');
    if (claim !== undefined) {
      p.check(under(TOKENIZER_PATH), 'tokenizer', t, `is not a directory under ${TOKENIZER_PATH}, where tokenizerClaim is mounted`,
        `give the tokenizer's directory in the claim, e.g. '${TOKENIZER_PATH}/llama-3.1'`);
    } else if (claimResults) {
      p.check(under(RESULTS_PATH), 'tokenizer', t, `is not a directory under ${RESULTS_PATH}, the results claim, which is where `
        + 'the pod reads a tokenizer from (genai-perf would download anything else from the Hugging Face Hub)',
        `copy the model's tokenizer files into the claim and give their directory, e.g. ${example}, or set tokenizerClaim`);
    } else {
      p.check(false, 'tokenizer', t, 'has no claim to be read from: the results go to S3, so /results is an empty directory',
        `set tokenizerClaim to a claim that holds the model's tokenizer and tokenizer to its directory under ${TOKENIZER_PATH}`);
    }
  }

  private checkTokens(p: Problems, prop: string, t: TokenLengths | undefined) {
    if (t === undefined) return;
    p.check(isWhole(t.mean, 1), `${prop}.mean`, t.mean, 'must be a whole number of tokens >= 1', 'use e.g. 128');
    p.check(t.stddev === undefined || isWhole(t.stddev, 0), `${prop}.stddev`, t.stddev, 'must be a whole number of tokens >= 0',
      'use e.g. 0 for fixed lengths');
  }

  private checkExtraArgs(p: Problems, args: readonly string[]) {
    const owned = OWNED_FLAGS[this.tool] ?? [];
    for (const arg of args) {
      const flag = owned.find((f) => arg === f || (f.startsWith('--') && arg.startsWith(`${f}=`)));
      p.check(flag === undefined, 'extraArgs', arg, `repeats ${flag}, which TritonLoadTest writes`,
        `remove it and use the prop that sets ${flag}`);
      p.check(arg !== '', 'extraArgs', arg, 'is empty', 'remove it');
    }
  }
}

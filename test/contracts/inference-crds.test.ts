import { readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import { INFERENCE_CRDS } from '../../lib/fleet/addons/inference-crds-addon';
import { INFERENCE_APIS } from '../../lib/triton/routing/inference-pool-options';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { describeFacts, objectsOf } from './upstream';

const GAIE = 'kubernetes-sigs/gateway-api-inference-extension';
const LDR = 'llm-d/llm-d-router';
const ISTIO = 'istio/istio';
const [POOL, OBJECTIVE] = INFERENCE_CRDS;

const crdOf = (file: string): any => parse(readFileSync(join(__dirname, '..', '..', 'crds', file), 'utf8'));
/** `<group>/<version>` of each served version of a vendored CRD. */
const apiVersions = (file: string): string[] => {
  const crd = crdOf(file);
  return crd.spec.versions.filter((v: any) => v.served).map((v: any) => `${crd.spec.group}/${v.name}`);
};

describeFacts('The inference CRDs: InferencePool (GAIE) and InferenceObjective (llm-d router)', { [GAIE]: POOL.version, [LDR]: OBJECTIVE.version, [ISTIO]: '1.30.3' }, [
  {
    fact: 'GAIE releases its CRDs as manifests built from config/crd (no CRD chart), so the add-ons stack applies the file',
    citation: `${GAIE}:Makefile@${POOL.version} lines 263-265`,
    holds: () => expect(POOL.file).toBe('inference.networking.k8s.io_inferencepools.yaml'),
  },
  {
    fact: 'the InferencePool CRD serves inference.networking.k8s.io/v1, the version the routing writes',
    citation: `${GAIE}:config/crd/bases/inference.networking.k8s.io_inferencepools.yaml@${POOL.version} line 19`,
    holds: () => expect(apiVersions(POOL.file)).toEqual([INFERENCE_APIS.inferencePool]),
  },
  {
    fact: `the InferencePool CRD is stamped with bundle ${POOL.version}`,
    citation: `${GAIE}:config/crd/bases/inference.networking.k8s.io_inferencepools.yaml@${POOL.version} line 6`,
    holds: () => expect(crdOf(POOL.file).metadata.annotations['inference.networking.k8s.io/bundle-version']).toBe(POOL.version),
  },
  {
    fact: 'endpointPickerRef is optional from v1.6 on, "still required by most implementations" (reason EndpointPickerRefMissing, '
      + 'lines 311-320): every pool of the LLM example names its picker',
    citation: `${GAIE}:api/v1/inferencepool_types.go@${POOL.version} lines 99-100`,
    holds: () => {
      const pools = objectsOf(LLM_FLEET).filter((o) => o.kind === 'InferencePool');
      expect(pools.length).toBeGreaterThan(0);
      expect(pools.filter((o) => o.spec.endpointPickerRef?.name === undefined).map((o) => o.metadata.name)).toEqual([]);
    },
  },
  {
    fact: 'istiod reads InferencePools at inference.networking.k8s.io/v1',
    citation: `${ISTIO}:pkg/config/schema/gvr/resources.gen.go@1.30.3 line 37`,
    holds: () => expect(apiVersions(POOL.file)).toContain('inference.networking.k8s.io/v1'),
  },
  {
    fact: 'the InferenceObjective CRD serves llm-d.ai/v1alpha2, the version the routing writes',
    citation: `${LDR}:config/crd/bases/llm-d.ai_inferenceobjectives.yaml@${OBJECTIVE.version} line 26`,
    holds: () => expect(apiVersions(OBJECTIVE.file)).toEqual([INFERENCE_APIS.inferenceObjective]),
  },
  {
    fact: 'the InferenceObjective CRD is stamped main-dev, not with the release: the pin is the tag it was read at',
    citation: `${LDR}:config/crd/bases/llm-d.ai_inferenceobjectives.yaml@${OBJECTIVE.version} line 5`,
    holds: () => {
      expect(crdOf(OBJECTIVE.file).metadata.annotations['llm-d.ai/bundle-version']).toBe('main-dev');
      expect(OBJECTIVE.source).toContain(`@${OBJECTIVE.version} (commit 71f4f0999f95b96c49a9d0c4afbd18dfdb943c26)`);
    },
  },
  {
    fact: 'both kinds are namespaced (the pool and its objectives live in the server\'s namespace)',
    citation: `${LDR}:config/crd/bases/llm-d.ai_inferenceobjectives.yaml@${OBJECTIVE.version} line 14`,
    holds: () => expect([crdOf(POOL.file).spec.scope, crdOf(OBJECTIVE.file).spec.scope]).toEqual(['Namespaced', 'Namespaced']),
  },
]);

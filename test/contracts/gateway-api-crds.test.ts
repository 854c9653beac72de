import { readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import { ADDON_PROVIDES } from '../../lib/fleet/addons/addon-registry';
import { GATEWAY_API_CRDS } from '../../lib/fleet/addons/gateway-api-crds-addon';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { describeFacts, objectsOf } from './upstream';

const REPO = 'kubernetes-sigs/gateway-api';
const TAG = GATEWAY_API_CRDS[0].version;
const ISTIO = 'istio/istio';
const ISTIO_TAG = '1.30.3';
const cite = (file: string, line: number) => `${REPO}:config/crd/standard/${file}@${TAG} line ${line}`;
const istio = (path: string, line: number) => `${ISTIO}:${path}@${ISTIO_TAG} line ${line}`;

/** The vendored CRD of `kind`. */
const crdOf = (kind: string): any => {
  const pin = GATEWAY_API_CRDS.find((c) => c.kind === kind)!;
  return parse(readFileSync(join(__dirname, '..', '..', 'crds', pin.file), 'utf8'));
};
const served = (kind: string): string[] => crdOf(kind).spec.versions.filter((v: any) => v.served).map((v: any) => v.name);
/** The kinds the add-on provides. */
const provided = () => ADDON_PROVIDES.gatewayApiCrds.provides.map((p) => p.kind);
/** The listeners of the LLM example's Gateway API Gateways. */
const listeners = (): any[] => objectsOf(LLM_FLEET).filter((o) => o.kind === 'Gateway' && o.apiVersion.startsWith('gateway.networking.k8s.io/'))
  .flatMap((o) => o.spec.listeners);

describeFacts(`Gateway API ${TAG}: the facts of the vendored CRDs and of the Istio that reads them`, { [REPO]: TAG, [ISTIO]: ISTIO_TAG }, [
  {
    fact: 'the v1.7 safe-upgrades policy refuses every Gateway API CRD stamped v1.0 to v1.6, release candidates included: '
      + 'the vendored CRDs are all of one v1.7 release',
    citation: `${REPO}:config/crd/standard/gateway.networking.k8s.io_vap_safeupgrades.yaml@${TAG} lines 24-28`,
    holds: () => {
      expect(new Set(GATEWAY_API_CRDS.map((c) => c.version))).toEqual(new Set([TAG]));
      expect(TAG).toMatch(/^v1\.7\.\d+$/);
    },
  },
  {
    fact: 'tls is required on an HTTPS listener (a v1.6 breaking change, CHANGELOG/1.6-CHANGELOG.md line 99) and its mode must be '
      + 'Terminate, with certificateRefs; it must not be set on an HTTP one',
    citation: cite('gateway.networking.k8s.io_gateways.yaml', 746),
    holds: () => {
      const all = listeners();
      expect(all.filter((l) => l.protocol === 'HTTPS').length).toBeGreaterThan(0);
      expect(all.filter((l) => (l.protocol === 'HTTPS'
        ? !(l.tls?.mode === 'Terminate' && l.tls.certificateRefs?.length > 0) : l.tls !== undefined)).map((l) => l.name)).toEqual([]);
    },
  },
  {
    fact: 'the CRD\'s rules: no tls on HTTP, TCP or UDP; mode Terminate on HTTPS; certificateRefs or options when Terminate',
    citation: cite('gateway.networking.k8s.io_gateways.yaml', 899),
    holds: () => {
      const rules = crdOf('Gateway').spec.versions.find((v: any) => v.name === 'v1').schema.openAPIV3Schema.properties.spec.properties.listeners['x-kubernetes-validations'];
      expect(rules.map((r: any) => r.message)).toEqual(expect.arrayContaining([
        "tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']", 'tls mode must be Terminate for protocol HTTPS']));
    },
  },
  {
    fact: 'istiod watches GatewayClass, Gateway, HTTPRoute, GRPCRoute, BackendTLSPolicy, TLSRoute, ListenerSet and ReferenceGrant: the add-on\'s kinds are among them',
    citation: istio('pilot/pkg/config/kube/gateway/controller.go', 201),
    holds: () => {
      const watched = ['GatewayClass', 'Gateway', 'HTTPRoute', 'GRPCRoute', 'BackendTLSPolicy', 'TLSRoute', 'ListenerSet', 'ReferenceGrant'];
      expect(provided().filter((k) => !watched.includes(k))).toEqual([]);
    },
  },
  {
    fact: 'each watch is a delayed informer, empty until its CRD exists: the kinds the fleet does not write are left out',
    citation: istio('pilot/pkg/config/kube/gateway/controller.go', 483),
    holds: () => expect(provided()).toEqual(['GatewayClass', 'Gateway', 'HTTPRoute', 'ReferenceGrant']),
  },
  {
    fact: 'istiod reads GatewayClass, Gateway and HTTPRoute at v1 and ReferenceGrant at v1beta1: each vendored CRD serves that version',
    citation: istio('pkg/config/schema/gvr/resources.gen.go', 30),
    holds: () => {
      expect([['GatewayClass', 'v1'], ['Gateway', 'v1'], ['HTTPRoute', 'v1'], ['ReferenceGrant', 'v1beta1']]
        .map(([kind, version]) => [kind, served(kind).includes(version)])).toEqual([['GatewayClass', true], ['Gateway', true], ['HTTPRoute', true], ['ReferenceGrant', true]]);
    },
  },
  {
    fact: 'istioctl precheck refuses Gateway, GatewayClass, HTTPRoute and ReferenceGrant CRDs without v1beta1: all four serve it',
    citation: istio('istioctl/pkg/precheck/precheck.go', 243),
    holds: () => expect(provided().map((kind) => served(kind).includes('v1beta1'))).toEqual([true, true, true, true]),
  },
  ...GATEWAY_API_CRDS.map((c) => ({
    fact: `${c.file} defines ${c.kind} of gateway.networking.k8s.io, stamped with bundle ${TAG} of the standard channel`,
    citation: cite(c.file, 6),
    holds: () => {
      const crd = crdOf(c.kind);
      expect([crd.spec.group, crd.spec.names.kind]).toEqual(['gateway.networking.k8s.io', c.kind]);
      expect(crd.metadata.annotations).toMatchObject({ 'gateway.networking.k8s.io/bundle-version': TAG, 'gateway.networking.k8s.io/channel': 'standard' });
    },
  })),
]);

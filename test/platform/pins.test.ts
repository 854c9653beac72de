import { pins } from 'triton-ops/fleet';
import { addonPins, crdPins, manifestPins } from 'triton-ops/bridge';

describe('pins', () => {
  test('lists the cluster version, every chart, every vendored release manifest, every vendored CRD, every EKS add-on and the default images, each with its source', () => {
    const list = pins();
    expect(list.map((p) => [p.kind, p.component])).toEqual([
      ['eks', 'eks-kubernetes'],
      ...addonPins().map((p) => ['helm-chart', p.component]),
      ['release-manifest', 'keda'],
      ...crdPins().map((p) => ['crd', p.component]),
      ['eks-addon', 'aws-efs-csi-driver'],
      ['eks-addon', 'aws-fsx-csi-driver'],
      ['eks-addon', 'eks-pod-identity-agent'],
      ['image', 'nvidia-device-plugin'],
      ['image', 'aws-cli'],
      ['image', 'llm-d-router-endpoint-picker'],
    ]);
    expect(list.filter((p) => p.kind !== 'helm-chart' && p.kind !== 'crd').map((p) => p.version)).toEqual([
      '1.36',
      '2.21.1',
      ...Array(3).fill('EKS default for Kubernetes 1.36 (aws_eks_addon_version, most_recent = false), resolved at plan'),
      'nvcr.io/nvidia/k8s-device-plugin:v0.20.0',
      'public.ecr.aws/aws-cli/aws-cli:2.36.7',
      'ghcr.io/llm-d/llm-d-router-endpoint-picker:v0.10.0',
    ]);
    expect(manifestPins()).toEqual([expect.objectContaining({
      addon: 'metricsAdapter', component: 'keda', kind: 'release-manifest', version: '2.21.1', file: 'keda-2.21.1.yaml', supports: '1.34 to 1.36',
    })]);
    expect(list.filter((p) => p.kind === 'release-manifest')).toEqual(manifestPins());
    // Every source is a citation `owner/repo:path@ref`, with the line or, for a fact of absence, what the file lacks.
    for (const pin of list) expect(pin.source).toMatch(/^[\w.-]+\/[\w.-]+:[\w./-]+@[\w.-]+ (lines? |\()/);
  });

  test('the add-ons are resolved for the Kubernetes version asked', () => {
    expect(pins('1.34').filter((p) => p.kind === 'eks-addon').map((p) => p.supports))
      .toEqual(Array(3).fill('the Kubernetes version it is resolved for (1.34)'));
  });

  test('every pin carries its lifecycle: the release line of its version, a release day, an end of life only where one is known, a source', () => {
    for (const pin of pins()) {
      const l = pin.lifecycle;
      if (pin.kind !== 'eks-addon') expect(`${pin.component} ${pin.version}`).toMatch(new RegExp(`[:\\s]${l.cycle.replace(/\./g, '\\.')}(\\.|$)`));
      expect(l.released).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // A published date is a date; a policy may give none yet (Istio's "6 weeks after the N+2 minor"); no date is invented.
      if (l.basis === 'published') expect(l.endOfLife).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (l.basis === 'not-stated') expect(l.endOfLife).toBeUndefined();
      expect(l.source).not.toBe('');
    }
  });

  test('the dated pins: the cluster version (and the EKS add-ons that follow it) by the EKS calendar, Istio by its supported-releases table', () => {
    const dated = pins().filter((p) => p.lifecycle.endOfLife !== undefined).map((p) => [p.component, p.lifecycle.endOfLife, p.lifecycle.basis]);
    expect(dated).toEqual([
      ['eks-kubernetes', '2027-08-02', 'published'],
      // endoflife-date/endoflife.date:products/istio.md@a70eca337600e7d721dc48112c271f98661d208b lines 50-52.
      ['istio base', '2026-11-30', 'published'], ['istiod', '2026-11-30', 'published'], ['istio gateway', '2026-11-30', 'published'],
      ['aws-efs-csi-driver', '2027-08-02', 'policy'], ['aws-fsx-csi-driver', '2027-08-02', 'policy'], ['eks-pod-identity-agent', '2027-08-02', 'policy'],
    ]);
  });
});

import { Chart, Testing } from 'cdk8s';
import { SERVING_POD_SECURITY, ServingNamespace } from '../../lib';

describe('ServingNamespace', () => {
  test('enforces, audits and warns the restricted Pod Security level, cluster-scoped', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'inference' });
    new ServingNamespace(chart, 'Namespace', { name: 'inference', labels: { 'istio-injection': 'enabled' } });
    const [ns] = Testing.synth(chart);
    expect(SERVING_POD_SECURITY).toBe('restricted');
    expect(ns.kind).toBe('Namespace');
    expect(ns.metadata.namespace).toBeUndefined();
    expect(ns.metadata.labels).toEqual({
      'app.kubernetes.io/managed-by': 'triton-ops',
      'istio-injection': 'enabled',
      'pod-security.kubernetes.io/enforce': 'restricted',
      'pod-security.kubernetes.io/audit': 'restricted',
      'pod-security.kubernetes.io/warn': 'restricted',
    });
  });

  test('a user label cannot weaken the Pod Security level', () => {
    const chart = new Chart(Testing.app(), 'test');
    new ServingNamespace(chart, 'Namespace', { name: 'inference', labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } });
    expect(Testing.synth(chart)[0].metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  test.each(['default', 'Inference'])('fails on name %p', (name) => {
    const chart = new Chart(Testing.app(), 'test');
    expect(() => new ServingNamespace(chart, 'Namespace', { name }))
      .toThrow(`test/Namespace: 'name' ('${name}') must be a valid namespace name other than default; use a dedicated name such as 'inference'`);
  });
});

import { Chart, Testing } from 'cdk8s';
import { ServingNamespace } from '../../lib';
import { SERVING_POD_SECURITY } from '../../lib/k8s/serving-namespace';
import { serverChart } from '../helpers';

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

  test.each([
    ['default', "test/Namespace: 'name' ('default') must be a dedicated namespace, not default; use a name such as 'inference'"],
    ['Inference', "test/Namespace: 'name' ('Inference') is not a valid namespace name; use at most 63 lowercase letters, digits and -, starting and ending with a letter or digit"],
  ])('fails on name %p', (name, message) => {
    const chart = new Chart(Testing.app(), 'test');
    expect(() => new ServingNamespace(chart, 'Namespace', { name })).toThrow(message);
  });

  test('a namespace whose name starts with a digit is one every construct accepts (one namespace rule)', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'serving' });
    new ServingNamespace(chart, 'Namespace', { name: '2024-x' });
    const server = serverChart({ clientNamespaces: ['2024-x'], monitoringNamespace: '2024-x' }).server;
    expect(server.admittedNamespaces).toContain('2024-x');
    expect(server.monitoringNamespace).toBe('2024-x');
  });
});

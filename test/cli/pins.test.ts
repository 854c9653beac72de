import { pins } from 'triton-ops';
import { run } from '../../lib/cli/pins';
import { runInProcess } from './check-helpers';

const pinsCommand = (argv: string[]) => runInProcess(run, argv);

describe('triton-ops pins', () => {
  test('prints every pin as a block: kind, component, version, then its range and source', async () => {
    const r = await pinsCommand([]);
    expect(r.code).toBe(0);
    const plugin = pins().find((p) => p.component === 'nvidia-device-plugin')!;
    expect(r.out).toContain(`image nvidia-device-plugin nvcr.io/nvidia/k8s-device-plugin:v0.20.0\n  supports: ${plugin.supports}\n  source: ${plugin.source}\n`);
    expect(r.out.match(/^\S/gm)).toHaveLength(pins().length);
  });

  test('--format json gives the list; --kubernetes-version resolves the EKS add-ons for that version', async () => {
    const r = await pinsCommand(['--format', 'json', '--kubernetes-version', '1.35']);
    expect(JSON.parse(r.out)).toEqual(pins('1.35'));
  });

  test.each([
    [['--kubernetes-version', '1.30'], "triton-ops pins: pins: '--kubernetes-version' ('1.30') is not a Kubernetes version triton-ops supports on EKS: 1.34 to 1.36"],
    [['--format', 'yaml'], "triton-ops pins: --format must be text or json, not 'yaml'"],
    [['extra'], "triton-ops pins: unexpected argument 'extra'"],
    [['--bogus'], "triton-ops pins: unknown option '--bogus'"],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const r = await pinsCommand(argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });
});

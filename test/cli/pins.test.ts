import { pins } from 'triton-ops/fleet';
import { run } from '../../lib/cli/pins';
import { runInProcess } from './check-helpers';

const pinsCommand = (argv: string[]) => runInProcess(run, argv);

describe('triton-ops pins', () => {
  test('prints every pin as a block: kind, component, version, then its range and source', async () => {
    const r = await pinsCommand([]);
    expect(r.code).toBe(0);
    const plugin = pins().find((p) => p.component === 'nvidia-device-plugin')!;
    expect(r.out).toContain(`image nvidia-device-plugin nvcr.io/nvidia/k8s-device-plugin:v0.20.0\n  supports: ${plugin.supports}\n  source: ${plugin.source}\n`
      + `  released: 2026-08-19 (v0.20); end of life: not stated by the project; move to: no newer release read\n  lifecycle source: ${plugin.lifecycle.source}\n`);
    const istiod = pins().find((p) => p.component === 'istiod')!;
    expect(r.out).toContain(`  released: 2026-05-18 (1.30); end of life: 2026-11-30 (published); move to: 1.31 (the newest Istio minor)\n`
      + `  lifecycle source: ${istiod.lifecycle.source}\n`);
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
    [['--check', '--date', '2026-02-30'], "triton-ops pins: --date must be a day written YYYY-MM-DD, e.g. '2026-12-05', not '2026-02-30'"],
    [['--date', '2026-12-05'], 'triton-ops pins: --date is for --check: add --check, or leave out --date'],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const r = await pinsCommand(argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  test('--check on a day past an end of life: each such pin with its date and the release to move to, exit 1', async () => {
    const r = await pinsCommand(['--check', '--date', '2026-12-05']);
    expect(r.code).toBe(1);
    expect(r.out.split('\n').slice(0, -1)).toEqual([
      ...['istio base', 'istiod', 'istio gateway'].map((c) => `past end of life: helm-chart ${c} 1.30.3 reached its end of life on 2026-11-30; move to 1.31 (the newest Istio minor)`),
      `${pins().length} pins on 2026-12-05: 3 past end of life, 0 within 60 days of it, ${pins().filter((p) => p.lifecycle.endOfLife === undefined).length} without a stated end of life`,
    ]);
  });

  test('--check within 60 days of an end of life: warnings, exit 0; --kubernetes-version judges the EKS add-ons of that version', async () => {
    const r = await pinsCommand(['--check', '--date', '2026-10-15', '--kubernetes-version', '1.34']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('warning: helm-chart istiod 1.30.3 reaches its end of life on 2026-11-30, in 46 days; move to 1.31 (the newest Istio minor)\n');
    expect(r.out).toContain('warning: eks-addon aws-efs-csi-driver EKS default for Kubernetes 1.34 (aws_eks_addon_version, most_recent = false), resolved at plan '
      + 'reaches its end of life on 2026-12-02, in 48 days; move to 1.36 (standard support until 2027-08-02)\n');
    expect((await pinsCommand(['--check', '--date', '2026-09-01'])).code).toBe(0);
  });
});

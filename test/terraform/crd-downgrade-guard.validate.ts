/**
 * The add-ons stack's downgrade guard (lib/platform/crd-downgrade-guard.ts), evaluated by the real Terraform: the
 * precondition of `kubernetes_manifest.crd-gateways` as synthesized, with the cluster's CRDs (the data source's
 * `objects`) replaced by literals, through `terraform console`, which needs no provider.
 */
import '../aws/setup-cdktf';
import { spawnSync } from 'child_process';
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Testing } from 'cdktf';
import { FleetAddonsStack } from '../../lib/platform/fleet-addons-stack';
import { pooledFleet } from '../fleet/inference-pool-fixtures';

const STAMP = 'gateway.networking.k8s.io/bundle-version';
const OBJECTS = 'data.kubernetes_resources.crd-gateways-installed.objects';
const json = JSON.parse(Testing.synth(new FleetAddonsStack(Testing.app(), 'addons', { fleet: pooledFleet() })));
const [precondition] = json.resource.kubernetes_manifest['crd-gateways'].lifecycle.precondition;

/** What Terraform makes of `template` (a JSON-syntax string template) with the cluster holding `objects` (HCL). */
function evaluate(template: string, objects: string): unknown {
  // The template as a native-syntax string: its literal parts hold no quote, and an interpolation's quotes stay as they are.
  const expression = `"${template.replaceAll(OBJECTS, objects)}"`;
  const run = spawnSync('terraform', ['console', '-no-color'], {
    cwd: mkdtempSync(join(tmpdir(), 'guard-')), input: `${expression}\n`, encoding: 'utf8',
    env: { ...process.env, CHECKPOINT_DISABLE: '1', TF_CLI_CONFIG_FILE: '/dev/null' },
  });
  if (run.status !== 0) throw new Error(`terraform console: ${run.stderr}`);
  return JSON.parse(run.stdout.trim());
}
const crd = (version?: string) => (version === undefined ? '{ metadata = {} }' : `{ metadata = { annotations = { "${STAMP}" = "${version}" } } }`);

describe('the Gateway API downgrade guard, evaluated by terraform', () => {
  test.each([
    ['no CRD on the cluster', [], true],
    ['the same release', ['v1.7.0'], true],
    ['a release candidate of the same release', ['v1.7.0-rc.3'], true],
    ['an older release (the v1.6.3 triton-ops vendored before)', ['v1.6.3'], true],
    ['an older minor whose patch has more digits', ['v1.6.10'], true],
    ['an unstamped CRD', [undefined], true],
    ['a newer patch', ['v1.7.1'], false],
    ['a newer minor', ['v1.8.0'], false],
    ['a newer minor with more digits compared as numbers', ['v1.10.0'], false],
    ['a release candidate of a newer minor', ['v1.8.0-rc.1'], false],
    ['a newer major', ['v2.0.0'], false],
  ])('%s: %j passes: %s', (_, versions, passes) => {
    expect(evaluate(precondition.condition, `[${versions.map(crd).join(', ')}]`)).toBe(passes);
  });

  test('the message names the cluster\'s release beside the vendored one', () => {
    expect(evaluate(precondition.error_message, `[${crd('v1.8.0')}]`)).toMatch(
      /^The cluster's CRD gateways\.gateway\.networking\.k8s\.io is stamped v1\.8\.0 \(gateway\.networking\.k8s\.io\/bundle-version\), newer than v1\.7\.0, /);
  });
});

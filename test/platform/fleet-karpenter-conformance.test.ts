import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Testing } from 'cdk8s';
import { FleetChart } from '../../lib';
import { runCheck } from '../cli/check-helpers';
import { KARPENTER_SHOP } from '../fleet/karpenter-fixtures';

test('`triton-ops check` validates a Karpenter fleet\'s chart, NodePool and EC2NodeClass included, and passes it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-karpenter-'));
  writeFileSync(join(dir, 'shop.yaml'), new FleetChart(Testing.app(), 'shop', { fleet: KARPENTER_SHOP }).toJson()
    .map((o) => JSON.stringify(o)).join('\n---\n'));
  const run = await runCheck([dir, '--require', 'schemas']);
  expect(run.stdout).toMatch(/Kubernetes objects \(schema and structure\): \d+ passed, 0 failed/);
  expect(run.stdout).toMatch(/cross-object rules: \d+ passed, 0 failed/);
  expect(run.stdout).toMatch(/NodePool|no problems/);
  expect(run.status).toBe(0);
});

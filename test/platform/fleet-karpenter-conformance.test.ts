import { spawnSync } from 'child_process';
import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Testing } from 'cdk8s';
import { FleetChart } from '../../lib';
import { KARPENTER_SHOP } from './karpenter-fixtures';

test('the conformance step validates a Karpenter fleet\'s chart, NodePool and EC2NodeClass included, and passes it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-karpenter-'));
  writeFileSync(join(dir, 'shop.yaml'), new FleetChart(Testing.app(), 'shop', { fleet: KARPENTER_SHOP }).toJson()
    .map((o) => JSON.stringify(o)).join('\n---\n'));
  const run = spawnSync(process.execPath, [join(__dirname, '..', '..', '.ci', 'conformance.mjs'), dir], {
    cwd: join(__dirname, '..', '..'), encoding: 'utf8',
  });
  expect(run.stdout).toMatch(/conformance: \d+ passed, 0 failed/);
  expect(run.status).toBe(0);
});

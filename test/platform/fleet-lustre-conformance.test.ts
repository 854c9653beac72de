import { mkdtempSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Testing } from 'cdk8s';
import { FleetChart } from '../../lib';
import { runCheck } from '../cli/check-helpers';
import { ON_LUSTRE } from '../fleet/lustre-fixtures';

test('`triton-ops check` validates a fleet on FSx for Lustre, StorageClass and claim included, and passes it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-lustre-'));
  writeFileSync(join(dir, 'shop.yaml'), new FleetChart(Testing.app(), 'shop', { fleet: ON_LUSTRE }).toJson()
    .map((o) => JSON.stringify(o)).join('\n---\n'));
  const run = await runCheck([dir, '--require', 'schemas']);
  expect(run.stdout).toMatch(/Kubernetes objects \(schema and structure\): \d+ passed, 0 failed/);
  expect(run.stdout).toMatch(/cross-object rules: \d+ passed, 0 failed/);
  expect(run.status).toBe(0);
});

/**
 * The cdktf app: the `infra` (AWS), `addons` (cluster add-ons) and `serving` (Kubernetes) stacks of the default fleet, in
 * cdktf.out/, deployed in that order.
 */
import { App } from 'cdktf';
import { FleetInfraStack } from 'triton-ops/aws';
import { FleetAddonsStack, FleetServingStack } from 'triton-ops/bridge';
import { DEFAULT_FLEET } from './fleet';
import { keepStateOutsideOutdir } from './local-state';

export function synthTerraform(outdir: string): void {
  const app = new App({ outdir, skipValidation: false });
  const infra = new FleetInfraStack(app, 'infra', { fleet: DEFAULT_FLEET });
  keepStateOutsideOutdir(infra, 'infra');
  const addons = new FleetAddonsStack(app, 'addons', { fleet: DEFAULT_FLEET, infra });
  keepStateOutsideOutdir(addons, 'addons');
  const serving = new FleetServingStack(app, 'serving', { fleet: DEFAULT_FLEET, infra, addons });
  keepStateOutsideOutdir(serving, 'serving');
  app.synth();
}

if (require.main === module) synthTerraform(process.env.TRITON_OPS_TF_OUTDIR ?? 'cdktf.out');

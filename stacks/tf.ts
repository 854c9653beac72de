/** The cdktf app: the `infra` (AWS) and `serving` (Kubernetes) stacks of the default fleet, in cdktf.out/. */
import { App } from 'cdktf';
import { FleetInfraStack } from 'triton-ops/aws';
import { FleetServingStack } from 'triton-ops/bridge';
import { DEFAULT_FLEET } from './fleet';
import { keepStateOutsideOutdir } from './local-state';

export function synthTerraform(outdir: string): void {
  const app = new App({ outdir, skipValidation: false });
  const infra = new FleetInfraStack(app, 'infra', { fleet: DEFAULT_FLEET });
  keepStateOutsideOutdir(infra, 'infra');
  const serving = new FleetServingStack(app, 'serving', { fleet: DEFAULT_FLEET, infra });
  keepStateOutsideOutdir(serving, 'serving');
  app.synth();
}

if (require.main === module) synthTerraform(process.env.TRITON_OPS_TF_OUTDIR ?? 'cdktf.out');

/** The cdktf app: the `infra` (AWS) and `serving` (Kubernetes) stacks of the default fleet, in cdktf.out/. */
import { App } from 'cdktf';
import { DEFAULT_FLEET } from './fleet';
import { InfraStack } from './infra-stack';
import { ServingStack } from './serving-stack';

export function synthTerraform(outdir: string): void {
  const app = new App({ outdir, skipValidation: false });
  const infra = new InfraStack(app, 'infra', DEFAULT_FLEET);
  const serving = new ServingStack(app, 'serving', DEFAULT_FLEET);
  serving.addDependency(infra);
  app.synth();
}

if (require.main === module) synthTerraform(process.env.TRITON_OPS_TF_OUTDIR ?? 'cdktf.out');

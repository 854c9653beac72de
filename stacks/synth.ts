/** `npm run synth`: the YAML and both Terraform stacks in one process (one start-up, shared module loading). */
import { synthKubernetes } from './k8s';
import { synthTerraform } from './tf';

synthKubernetes(process.env.TRITON_OPS_OUTDIR ?? 'dist');
synthTerraform(process.env.TRITON_OPS_TF_OUTDIR ?? 'cdktf.out');

/**
 * Where the apps write, following the CLIs: the manifests go to CDK8S_OUTDIR (what `cdk8s synth -o` and
 * `cdk8s synth --stdout` set; default dist/), the Terraform stacks to CDKTF_OUTDIR (what `cdktf synth --output` sets;
 * default cdktf.out/), and what is neither a manifest nor a stack (the config.pbtxt tree, the promtool files) to
 * TRITON_OPS_ARTIFACTS (default artifacts/), outside the manifest folder so that `kubectl apply -R -f dist/` and
 * cdk8s' own manifest listing see only Kubernetes objects.
 */
import { join } from 'path';

export interface OutputDirs {
  /** Kubernetes manifests, one file per chart. */
  readonly manifests: string;
  /** `model-repository/<server>/<model>/config.pbtxt` and `promtool/<namespace>-<server>.{rules,test}.yaml`. */
  readonly artifacts: string;
  /** cdktf's `stacks/<id>/cdk.tf.json` and manifest.json. */
  readonly terraform: string;
}

/** The output folders from the environment, with the defaults of the README. */
export function outputDirs(env: NodeJS.ProcessEnv = process.env): OutputDirs {
  return {
    manifests: env.CDK8S_OUTDIR ?? 'dist',
    artifacts: env.TRITON_OPS_ARTIFACTS ?? 'artifacts',
    terraform: env.CDKTF_OUTDIR ?? 'cdktf.out',
  };
}

/** The config.pbtxt tree and the promtool files, inside the artifacts folder. */
export const modelRepositoryDir = (artifacts: string) => join(artifacts, 'model-repository');
export const promtoolDir = (artifacts: string) => join(artifacts, 'promtool');

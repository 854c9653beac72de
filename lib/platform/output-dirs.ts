/**
 * Where triton-ops apps write, following the CLIs, and where `triton-ops check` looks by default: the manifests in
 * CDK8S_OUTDIR (what `cdk8s synth -o` and `cdk8s synth --stdout` set; default dist/), the Terraform stacks in
 * CDKTF_OUTDIR (what `cdktf synth --output` sets; default cdktf.out/), and what is neither a manifest nor a stack (the
 * config.pbtxt tree, the promtool files) in TRITON_OPS_ARTIFACTS (default artifacts/), outside the manifest folder so
 * that `kubectl apply -R -f dist/` and cdk8s' own manifest listing see only Kubernetes objects.
 */

export interface OutputDirs {
  /** Kubernetes manifests, one file per chart. */
  readonly manifests: string;
  /** `model-repository/<server>/<model>/config.pbtxt` and `promtool/<namespace>-<server>.{rules,test}.yaml`. */
  readonly artifacts: string;
  /** cdktf's `stacks/<id>/cdk.tf.json` and manifest.json. */
  readonly terraform: string;
}

/**
 * The output folders from the environment, with the defaults docs/app.md gives. The parameter's type is structural, not
 * `NodeJS.ProcessEnv`, so that this declaration compiles in an app without `@types/node`.
 */
export function outputDirs(env: Readonly<Record<string, string | undefined>> = process.env): OutputDirs {
  return {
    manifests: env.CDK8S_OUTDIR ?? 'dist',
    artifacts: env.TRITON_OPS_ARTIFACTS ?? 'artifacts',
    terraform: env.CDKTF_OUTDIR ?? 'cdktf.out',
  };
}

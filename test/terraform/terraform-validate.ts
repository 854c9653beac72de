/** Runs the real `terraform validate` on a synthesized stack, with providers from a local filesystem mirror. */
import { spawnSync } from 'child_process';
import { writeFileSync } from 'fs';
import { join } from 'path';

export interface ValidateResult {
  readonly valid: boolean;
  readonly diagnostics: string[];
}

/** Environment variable holding the filesystem mirror folder (the one containing registry.terraform.io/). */
export const MIRROR_ENV = 'TRITON_OPS_TF_MIRROR';

export function terraformValidate(stackDir: string, mirror: string): ValidateResult {
  const cliConfig = join(stackDir, 'terraform.rc');
  writeFileSync(cliConfig, `provider_installation {\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n}\n`);
  const env = { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
  const init = spawnSync('terraform', ['init', '-backend=false', '-input=false', '-no-color'], { cwd: stackDir, env, encoding: 'utf8' });
  if (init.status !== 0) return { valid: false, diagnostics: [`terraform init failed: ${init.stderr || init.stdout}`] };
  const validate = spawnSync('terraform', ['validate', '-json', '-no-color'], { cwd: stackDir, env, encoding: 'utf8' });
  const result = JSON.parse(validate.stdout) as { valid: boolean; diagnostics: { severity: string; summary: string; detail?: string }[] };
  return {
    valid: result.valid && validate.status === 0,
    diagnostics: result.diagnostics.map((d) => `${d.severity}: ${d.summary}${d.detail ? ` (${d.detail})` : ''}`),
  };
}

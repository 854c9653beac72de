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

/** Terraform's environment with providers from the filesystem mirror only (a CLI config file in the stack folder). */
function mirrorEnv(stackDir: string, mirror: string): NodeJS.ProcessEnv {
  const cliConfig = join(stackDir, 'terraform.rc');
  writeFileSync(cliConfig, `provider_installation {\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n}\n`);
  return { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
}

/** `terraform init -backend=false` against the mirror: whether it succeeded, and what it printed. */
export function terraformInit(stackDir: string, mirror: string): { readonly ok: boolean; readonly output: string } {
  const init = spawnSync('terraform', ['init', '-backend=false', '-input=false', '-no-color'],
    { cwd: stackDir, env: mirrorEnv(stackDir, mirror), encoding: 'utf8' });
  return { ok: init.status === 0, output: `${init.stdout}${init.stderr}` };
}

export function terraformValidate(stackDir: string, mirror: string): ValidateResult {
  const env = mirrorEnv(stackDir, mirror);
  const init = terraformInit(stackDir, mirror);
  if (!init.ok) return { valid: false, diagnostics: [`terraform init failed: ${init.output}`] };
  const validate = spawnSync('terraform', ['validate', '-json', '-no-color'], { cwd: stackDir, env, encoding: 'utf8' });
  const result = JSON.parse(validate.stdout) as { valid: boolean; diagnostics: { severity: string; summary: string; detail?: string }[] };
  return {
    valid: result.valid && validate.status === 0,
    diagnostics: result.diagnostics.map((d) => `${d.severity}: ${d.summary}${d.detail ? ` (${d.detail})` : ''}`),
  };
}

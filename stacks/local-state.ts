import { LocalBackend, TerraformStack } from 'cdktf';

/**
 * Local state in the project folder, as cdktf's default, but as a path relative to the stack's folder
 * (cdktf.out/stacks/<id>): cdktf's default is absolute, which would differ on every machine and leak into the JSON.
 * Teams replace this with a remote backend.
 */
export function keepStateOutsideOutdir(stack: TerraformStack, id: string): void {
  new LocalBackend(stack, { path: `../../../terraform.${id}.tfstate` });
}

import { LocalBackend, TerraformStack } from 'cdktf';

/**
 * Local state beside the Terraform output folder, as cdktf's default keeps it in the project folder, but as a path
 * relative to the stack's folder (`<terraformDir>/stacks/<id>`): cdktf's default is absolute, which would differ on
 * every machine and leak into the JSON. Teams replace it with a remote backend (`state` in the description).
 */
export function keepStateOutsideOutdir(stack: TerraformStack, id: string): void {
  new LocalBackend(stack, { path: `../../../terraform.${id}.tfstate` });
}

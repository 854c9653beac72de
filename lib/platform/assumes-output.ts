import { TerraformOutput, TerraformStack } from 'cdktf';
import type { AddonProvides } from '../fleet/addons/addon-catalog';

/**
 * The Terraform output `assumes` of a stack: the add-ons the fleet needs that its description switches off, which the
 * cluster must already run. Both the add-ons stack and the serving stack (whose objects rely on them) state it.
 */
export function assumesOutput(stack: TerraformStack, assumes: readonly AddonProvides[]): TerraformOutput {
  return new TerraformOutput(stack, 'assumes', {
    description: 'Add-ons the fleet needs that its description switches off (addons.<name>: false); the cluster must run them',
    value: assumes.map((a) => `${a.addon}: ${a.summary}`),
  });
}

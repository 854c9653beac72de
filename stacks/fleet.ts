/** The default fleet description: the one place the deployable stacks take their settings from. */
import { VisionFleetProps } from '../examples/vision-fleet';

export const DEFAULT_FLEET: { readonly vision: VisionFleetProps } = {
  vision: {
    namespace: 'inference',
    image: 'nvcr.io/nvidia/tritonserver:24.08-py3',
    bucket: 'acme-triton-models',
    region: 'us-west-2',
    roleArn: 'arn:aws:iam::123456789012:role/triton-vision-models',
  },
};

/** The Kubernetes side of a fleet description, with the role ARNs the caller can resolve. */
import { App } from 'cdk8s';
import { gpuInstanceType, TritonOpsError } from 'triton-ops';
import { problem } from '../lib/private/errors';
import { VisionFleet } from '../examples/vision-fleet';
import { VisionServer } from '../examples/vision-servers';
import { FleetDescription } from './fleet-description';

export function visionChart(app: App, fleet: FleetDescription, roleArn: (server: VisionServer) => string): VisionFleet {
  const { nodeGroup, ...vision } = fleet.vision;
  const group = nodeGroup === undefined ? fleet.nodeGroups[0] : fleet.nodeGroups.find((g) => g.name === nodeGroup);
  if (nodeGroup !== undefined && group === undefined) {
    throw new TritonOpsError(problem(fleet.name, 'vision.nodeGroup', nodeGroup, 'is not a node group of the fleet',
      `use one of ${JSON.stringify(fleet.nodeGroups.map((g) => g.name))} or add it`));
  }
  return new VisionFleet(app, fleet.name, {
    ...vision,
    // The pool as the infra stack sizes it, so each autoscaler's maximum is checked against the same numbers.
    gpuPool: group && {
      name: group.name, instanceType: group.instanceTypes[0], gpusPerInstance: gpuInstanceType(group.instanceTypes[0])?.gpus ?? 1,
      minSize: group.minSize, maxSize: group.maxSize,
    },
    bucket: fleet.bucket,
    region: fleet.region,
    roleArns: { classifier: roleArn('classifier'), segmenter: roleArn('segmenter') },
  });
}

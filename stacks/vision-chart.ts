/** The Kubernetes side of a fleet description, with the role ARNs the caller can resolve. */
import { App } from 'cdk8s';
import { VisionFleet } from '../examples/vision-fleet';
import { VisionServer } from '../examples/vision-servers';
import { FleetDescription, gpuPoolOf, visionNodeGroup } from './fleet-description';

export function visionChart(app: App, fleet: FleetDescription, roleArn: (server: VisionServer) => string): VisionFleet {
  const { nodeGroup: _, ...vision } = fleet.vision;
  const group = visionNodeGroup(fleet);
  return new VisionFleet(app, fleet.name, {
    ...vision,
    // The pool as the infra stack sizes it, so each autoscaler's maximum is checked against the same numbers.
    gpuPool: group && gpuPoolOf(fleet, group),
    bucket: fleet.bucket,
    region: fleet.region,
    roleArns: { classifier: roleArn('classifier'), segmenter: roleArn('segmenter') },
  });
}

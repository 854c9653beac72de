/** The Kubernetes side of a fleet description, with the role ARNs the caller can resolve. */
import { App } from 'cdk8s';
import { VisionFleet } from '../examples/vision-fleet';
import { VisionServer } from '../examples/vision-servers';
import { FleetDescription } from './fleet-description';

export function visionChart(app: App, fleet: FleetDescription, roleArn: (server: VisionServer) => string): VisionFleet {
  return new VisionFleet(app, fleet.name, {
    ...fleet.vision,
    bucket: fleet.bucket,
    region: fleet.region,
    roleArns: { classifier: roleArn('classifier'), segmenter: roleArn('segmenter') },
  });
}

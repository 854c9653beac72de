/**
 * The default fleet: the one description that dist/ml-serving/vision.yaml and both Terraform stacks are built from.
 * Imports no cdk8s: the infra stack reads it too.
 */
import { FleetDescription } from 'triton-ops/fleet';
import { VISION_FLEET } from '../examples/vision-fleet';

export const DEFAULT_FLEET: FleetDescription = VISION_FLEET;

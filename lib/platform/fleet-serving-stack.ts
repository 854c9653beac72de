/**
 * FleetServingStack: the Kubernetes side of a FleetDescription as Terraform (cdktf): the same FleetChart as the
 * YAML, applied through kubernetes_manifest, with each IRSA role ARN a reference to the role the infra stack made.
 */
import { DataAwsIamRole } from '@cdktf/provider-aws/lib/data-aws-iam-role';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { App as Cdk8sApp } from 'cdk8s';
import { TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { ChartManifests } from '../bridge/chart-manifests';
import { assumedAddons } from '../fleet/addons/addon-plan';
import { assumesOutput } from './assumes-output';
import type { AddonProvides } from '../fleet/addons/addon-catalog';
import { FleetChart } from './fleet-chart';
import type { FleetDescription } from '../fleet/fleet-description';
import type { FleetPlan, ServerPlan } from '../fleet/fleet-plan';
import { checkFleetShape } from '../fleet/fleet-shape';
import { clusterAccess, fleetAwsProvider, fleetBackend } from './providers';
import { problem, TritonOpsError } from '../private/errors';

export interface FleetServingStackProps {
  /** The fleet. */
  readonly fleet: FleetDescription;
  /** The stack that creates the fleet's AWS resources; this stack is deployed after it. @default - no dependency */
  readonly infra?: TerraformStack;
  /**
   * The stack that installs the cluster add-ons (FleetAddonsStack: CRDs, controllers, the custom metrics API) the
   * objects of this stack need; this stack is deployed after it. @default - no dependency: the add-ons are in the cluster
   */
  readonly addons?: TerraformStack;
  /**
   * The plan of `fleet` (planFleet of this very description object), when the caller has it: the stack reads it
   * instead of planning again, so that one synth plans each fleet once. A plan of another description is refused.
   * @default - the stack plans `fleet`
   */
  readonly plan?: FleetPlan;
}

/**
 * The AWS and Kubernetes providers (host, CA and token from the cluster's data sources), the FleetChart of the fleet
 * in a fresh cdk8s App, and every object of it as a kubernetes_manifest (ChartManifests). Under IRSA each role is
 * looked up by the plan's role name (`data.aws_iam_role.<server>-models-role`), so a missing role fails the plan, not
 * the pods; under EKS Pod Identity nothing is looked up (the association names the role, no annotation is written).
 *
 * One serving stack per cluster in an app: each stack's FleetChart carries the objects a cluster has once (the NVIDIA
 * device plugin, the prometheus-adapter rules ConfigMap), so two Terraform states would own them and each apply would
 * undo the other's. A second stack for the cluster of an earlier one is refused; the fleets of a shared cluster are
 * deployed from the YAML side (`dist/<cluster>/`, where ClusterChart holds those objects once).
 */
export class FleetServingStack extends TerraformStack {
  /** Whether `x` is a FleetServingStack (without relying on `instanceof` across copies of the library). */
  public static isFleetServingStack(x: unknown): x is FleetServingStack {
    return FleetServingStack.prototype.isPrototypeOf(x as object);
  }

  public readonly chart: FleetChart;
  public readonly manifests: ChartManifests;
  /** The add-ons the fleet needs that its description switches off: this stack's objects rely on the cluster having them. */
  public readonly assumes: readonly AddonProvides[];

  public constructor(scope: Construct, id: string, props: FleetServingStackProps) {
    super(scope, id);
    const { fleet } = props;
    // The backend and the providers read the description before the FleetChart plans it: its shape is checked first.
    checkFleetShape(fleet);
    refuseSharedCluster(this, fleet);
    fleetBackend(this, fleet, id);
    if (props.infra) this.addDependency(props.infra);
    if (props.addons) this.addDependency(props.addons);
    fleetAwsProvider(this, fleet);
    new KubernetesProvider(this, 'kubernetes', clusterAccess(this, fleet));
    const roleArn = (server: ServerPlan): string => new DataAwsIamRole(this, `${server.name}-models-role`, {
      name: server.s3!.roleName,
    }).arn;
    this.chart = new FleetChart(new Cdk8sApp(), fleet.name, { fleet, roleArn, plan: props.plan });
    this.manifests = new ChartManifests(this, 'Workloads', { chart: this.chart });
    this.assumes = assumedAddons(this.chart.plan);
    assumesOutput(this, this.assumes);
  }
}

/** Refuses `stack` when an earlier FleetServingStack of its app serves the same cluster (account, region, name). */
function refuseSharedCluster(stack: FleetServingStack, fleet: FleetDescription): void {
  const where = (f: FleetDescription) => `${f.accountId}/${f.region}/${f.cluster.name}`;
  const earlier = stack.node.root.node.children.filter(FleetServingStack.isFleetServingStack)
    .filter((other) => other !== stack && other.chart !== undefined && where(other.chart.plan.fleet) === where(fleet));
  if (earlier.length === 0) return;
  const other = earlier[0];
  throw new TritonOpsError(problem(stack.node.path, 'fleet.cluster.name', fleet.cluster.name,
    `is also the cluster of fleet '${other.chart.plan.fleet.name}' (stack ${other.node.path}, account ${fleet.accountId}, ${fleet.region}); `
    + 'both serving stacks would own the objects a cluster has once (the NVIDIA device plugin, the prometheus-adapter rules), '
    + "and each apply would undo the other's",
    'deploy one fleet per cluster with Terraform, and the fleets of a shared cluster from dist/<cluster>/ (YAML, a ClusterChart '
    + 'holds those objects once), or merge the fleets into one description'));
}

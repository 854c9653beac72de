/** The Kubernetes side of a fleet as Terraform: the same chart as the YAML, applied through kubernetes_manifest. */
import { DataAwsEksCluster } from '@cdktf/provider-aws/lib/data-aws-eks-cluster';
import { DataAwsEksClusterAuth } from '@cdktf/provider-aws/lib/data-aws-eks-cluster-auth';
import { DataAwsIamRole } from '@cdktf/provider-aws/lib/data-aws-iam-role';
import { AwsProvider } from '@cdktf/provider-aws/lib/provider';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { App as Cdk8sApp } from 'cdk8s';
import { Fn, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { ChartManifests } from 'triton-ops/bridge';
import { FleetDescription, modelReaderRoleName } from './fleet-description';
import { keepStateOutsideOutdir } from './local-state';
import { visionChart } from './vision-chart';

export class ServingStack extends TerraformStack {
  public readonly manifests: ChartManifests;

  public constructor(scope: Construct, id: string, fleet: FleetDescription) {
    super(scope, id);
    keepStateOutsideOutdir(this, id);
    new AwsProvider(this, 'aws', { region: fleet.region });
    const cluster = new DataAwsEksCluster(this, 'Cluster', { name: fleet.cluster.name });
    const auth = new DataAwsEksClusterAuth(this, 'ClusterAuth', { name: fleet.cluster.name });
    new KubernetesProvider(this, 'kubernetes', {
      host: cluster.endpoint,
      clusterCaCertificate: Fn.base64decode(cluster.certificateAuthority.get(0).data),
      token: auth.token,
    });
    // The roles are looked up by the name the infra stack gave them: a missing role fails the plan, not the pods.
    const chart = visionChart(new Cdk8sApp(), fleet,
      (server) => new DataAwsIamRole(this, `${server}-models-role`, { name: modelReaderRoleName(fleet, server) }).arn);
    this.manifests = new ChartManifests(this, 'Workloads', { chart });
  }
}

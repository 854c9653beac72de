/**
 * FleetAddonsStack: the cluster add-ons a fleet's serving objects need (CRDs, controllers, the custom metrics API),
 * as Terraform (cdktf): Helm releases and EKS add-ons, derived from the same plan as the FleetChart. Deployed after the
 * infra stack and before the serving stack. Exported from 'triton-ops/bridge' only.
 */
import { DataAwsIamPolicyDocument } from '@cdktf/provider-aws/lib/data-aws-iam-policy-document';
import { EksAddon } from '@cdktf/provider-aws/lib/eks-addon';
import type { Manifest } from '@cdktf/provider-kubernetes/lib/manifest';
import { IamRole } from '@cdktf/provider-aws/lib/iam-role';
import { IamRolePolicyAttachment } from '@cdktf/provider-aws/lib/iam-role-policy-attachment';
import { HelmProvider } from '@cdktf/provider-helm/lib/provider';
import { Release } from '@cdktf/provider-helm/lib/release';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { StorageClassV1 } from '@cdktf/provider-kubernetes/lib/storage-class-v1';
import { DataResource, Fn, TerraformStack, Token } from 'cdktf';
import { Construct } from 'constructs';
import { eksAddonDefaultVersion } from '../aws/eks-addon-version';
import { ChartManifest } from '../bridge/chart-manifest';
import { EksCluster } from '../aws/eks-cluster';
import type { IEksCluster } from '../aws/eks-cluster-ref';
import { irsaTrustStatement } from '../aws/service-account-trust';
import { ADDON_DEFAULTS, AddonsPlan } from '../fleet/addons/addon-plan';
import { assumesOutput } from './assumes-output';
import type { AddonProvides } from '../fleet/addons/addon-catalog';
import { EFS_CSI_PROVISIONER } from '../fleet/addons/efs-csi-addon';
import { fsxLustreDriverRole } from './addons/fsx-lustre-driver-role';
import type { FleetDescription } from '../fleet/fleet-description';
import { FleetPlan, planOf } from '../fleet/fleet-plan';
import { TritonOpsError } from '../private/errors';
import { clusterAccess, fleetAwsProvider, fleetBackend } from './providers';
import { crdDowngradeGuard } from './crd-downgrade-guard';
import { vendoredCrdManifest } from './vendored-crd';
import { vendoredReleaseObjects } from './vendored-release';
import { KubeObject, manifestResourceId } from '../triton/serving/kube-object';

export interface FleetAddonsStackProps {
  /** The fleet. */
  readonly fleet: FleetDescription;
  /** The stack that creates the fleet's AWS resources (the cluster); this stack is deployed after it. @default - no dependency */
  readonly infra?: TerraformStack;
  /**
   * The plan of `fleet` (planFleet of this very description object), when the caller has it: the stack reads it
   * instead of planning again, so that one synth plans each fleet once. A plan of another description is refused.
   * @default - the stack plans `fleet`
   */
  readonly plan?: FleetPlan;
}

/**
 * Every add-on the fleet needs and does not switch off (`addons.<name>: false`): Istio (base, istiod, the ingress
 * gateway) when the mesh is on; kube-prometheus-stack when the fleet is scraped, alerted on or has a dashboard;
 * prometheus-adapter (engine hpa) or KEDA (engine keda); the EFS CSI driver with a StorageClass when a server reads a
 * claim; the FSx for Lustre CSI driver with its IAM role when the fleet bucket has a Lustre file system
 * (`modelBucket.lustre`); the EKS Pod Identity agent and the Karpenter controller when the plan uses them; the LeaderWorkerSet controller
 * (`lws` in `lws-system`) when a server spans several nodes (`nodesPerReplica` > 1); the Gateway API and inference CRDs
 * (vendored under `crds/`, one `kubernetes_manifest` each, applied before istiod, and refused at plan time when the
 * cluster has one stamped with a newer release: crd-downgrade-guard.ts) when a server routes through an InferencePool. Each Helm release is pinned (the add-on modules' pins, ADDON_CHARTS) and refused at synth when its
 * chart does not support `cluster.kubernetesVersion`.
 *
 * An add-on the fleet needs but switches off is listed in `assumes` and in the Terraform output `assumes`: the serving
 * stack's objects of that add-on (e.g. the ServiceMonitors with `prometheus: false`) rely on the cluster having it.
 * Construct ids are Terraform addresses: `helm_release.<id>` with the ids of `plan.releases`, `kubernetes_manifest.<id>`
 * with the ids of `plan.crds`.
 */
export class FleetAddonsStack extends TerraformStack {
  public readonly plan: FleetPlan;
  /** What is installed and assumed, with every release's chart and values. */
  public readonly addons: AddonsPlan;
  /** The vendored CRDs' `kubernetes_manifest` resources by id. */
  public readonly crds: Readonly<Record<string, Manifest>>;
  /** The objects of the vendored release manifests (KEDA's) by construct id, `<release>_<kind and name>`. */
  public readonly manifests: Readonly<Record<string, Manifest>>;
  /** The Helm releases by id. */
  public readonly releases: Readonly<Record<string, Release>>;
  /** The EKS add-ons by id. */
  public readonly eksAddons: Readonly<Record<string, EksAddon>>;
  /** The add-ons the fleet needs that the description switches off: the cluster must already run them. */
  public readonly assumes: readonly AddonProvides[];

  public constructor(scope: Construct, id: string, props: FleetAddonsStackProps) {
    super(scope, id);
    const { fleet } = props;
    // Planned first: the backend reads the description, which the plan checks.
    this.plan = planOf(this.node.path, fleet, props.plan);
    if (this.plan.problems.length > 0) throw new TritonOpsError(this.plan.problems);
    fleetBackend(this, fleet, id);
    if (props.infra) this.addDependency(props.infra);
    // Planned with the fleet (FleetPlan.addons); a refusal is this stack's, not the YAML's.
    if (this.plan.addonProblems.length > 0) throw new TritonOpsError(this.plan.addonProblems);
    const addons = this.plan.addons!;
    this.addons = addons;
    this.assumes = addons.assumes;

    fleetAwsProvider(this, fleet);
    // The EFS and FSx drivers' IRSA trust needs the cluster's OIDC provider: read the cluster once, for it and the providers.
    const irsa = addons.eksAddons.some((a) => a.addon === 'efsCsi' || a.addon === 'fsxLustreCsi');
    const cluster = irsa ? EksCluster.fromName(this, 'EksCluster', fleet.cluster.name) : undefined;
    const access = clusterAccess(this, fleet, cluster);
    new HelmProvider(this, 'helm', { kubernetes: access });
    new KubernetesProvider(this, 'kubernetes', access);

    const eksAddons: Record<string, EksAddon> = {};
    for (const a of addons.eksAddons) {
      const role = a.addon === 'efsCsi' ? this.efsDriverRole(fleet, cluster!)
        : a.addon === 'fsxLustreCsi' ? fsxLustreDriverRole(this, fleet, cluster!, addons.fsxLustreDriver!) : undefined;
      eksAddons[a.id] = new EksAddon(this, a.id, {
        clusterName: fleet.cluster.name, addonName: a.addonName, serviceAccountRoleArn: role?.arn,
        // EKS's default version for the cluster's Kubernetes version (data.aws_eks_addon_version.<id>-version), never unset.
        addonVersion: eksAddonDefaultVersion(this, `${a.id}-version`, a.addonName, addons.kubernetesVersion),
        resolveConflictsOnCreate: 'OVERWRITE', resolveConflictsOnUpdate: 'OVERWRITE',
      });
    }
    this.eksAddons = eksAddons;

    const crds: Record<string, Manifest> = {};
    for (const c of addons.crds) {
      const manifest = vendoredCrdManifest(c.file);
      const newerOnCluster = crdDowngradeGuard(this, c.id, c.addon, manifest);
      // Bodies without tokens: handed to Terraform whole (ChartManifest), not walked by cdktf's token resolution.
      crds[c.id] = new ChartManifest(this, c.id, {
        manifest, lifecycle: newerOnCluster === undefined ? undefined : { precondition: [newerOnCluster] },
      }, false);
    }
    this.crds = crds;

    // A release manifest: its Namespace first, every other object after it (CRDs, RBAC, Services, Deployments, the
    // APIService and webhooks reference each other by name only, which the API server accepts in any order). Terraform
    // waits for each Deployment's rollout, as the Helm releases wait for their pods, so the serving stack's objects
    // find KEDA running.
    const manifests: Record<string, Manifest> = {};
    for (const m of addons.manifests) {
      const objects = vendoredReleaseObjects(m.release.file);
      const namespaces: Manifest[] = [];
      for (const object of [...objects.filter((o) => o.kind === 'Namespace'), ...objects.filter((o) => o.kind !== 'Namespace')]) {
        const id = `${m.id}_${manifestResourceId(object as unknown as KubeObject)}`;
        const dependencies = object.kind === 'Namespace' ? [] : namespaces;
        manifests[id] = new ChartManifest(this, id, {
          manifest: object, dependsOn: dependencies.length ? dependencies : undefined,
          wait: object.kind === 'Deployment' ? { rollout: true } : undefined,
        }, false, dependencies);
        if (object.kind === 'Namespace') namespaces.push(manifests[id]);
      }
    }
    this.manifests = manifests;

    const releases: Record<string, Release> = {};
    for (const r of addons.releases) {
      releases[r.id] = new Release(this, r.id, {
        name: r.releaseName, namespace: r.namespace, createNamespace: true,
        repository: r.chart.repository, chart: r.chart.name, version: r.chart.version,
        values: [JSON.stringify(r.values)],
        setSensitive: r.grafanaAdmin ? [{ name: 'grafana.adminPassword', value: this.grafanaAdminPassword() }] : undefined,
        // Wait (and roll back on failure) unless the pods need an object of the serving stack to start.
        atomic: !r.startsWithServing, cleanupOnFail: true, wait: !r.startsWithServing,
        dependsOn: r.after.length > 0 ? r.after.map((after) => releases[after] ?? eksAddons[after] ?? crds[after]) : undefined,
      });
    }
    this.releases = releases;

    if (addons.efsStorageClass !== undefined) {
      const { name, fileSystemId } = addons.efsStorageClass;
      new StorageClassV1(this, 'efs-storage-class', {
        metadata: { name },
        storageProvisioner: EFS_CSI_PROVISIONER,
        reclaimPolicy: 'Retain',
        volumeBindingMode: 'Immediate',
        parameters: fileSystemId === undefined ? undefined : { provisioningMode: 'efs-ap', fileSystemId, directoryPerms: '755' },
        dependsOn: [eksAddons['efs-csi-driver']],
      });
    }

    assumesOutput(this, addons.assumes);
  }

  /**
   * Grafana's admin password: random, generated once by Terraform and kept (a `terraform_data` whose input is never
   * re-read), instead of the chart's well-known default. It lives in the Terraform state and in the Secret the chart
   * writes (`<release>-grafana`, key `admin-password`), where an operator reads it with kubectl.
   */
  private grafanaAdminPassword(): string {
    const generated = new DataResource(this, 'grafana-admin-password', {
      input: { password: Fn.uuid() },
      lifecycle: { ignoreChanges: ['input'] },
    });
    return Token.asString(generated.output.lookup('password'));
  }

  /** The EFS CSI controller's IRSA role with AWS's managed driver policy. */
  private efsDriverRole(fleet: FleetDescription, cluster: IEksCluster): IamRole {
    const sa = ADDON_DEFAULTS.efsControllerServiceAccount;
    const role = new IamRole(this, 'efs-csi-driver-role', {
      name: `${fleet.name}-efs-csi-driver`,
      assumeRolePolicy: new DataAwsIamPolicyDocument(this, 'efs-csi-driver-trust', {
        statement: [irsaTrustStatement(cluster, sa.namespace, sa.name, 'EfsCsiController')],
      }).json,
    });
    new IamRolePolicyAttachment(this, 'efs-csi-driver-policy', { role: role.name, policyArn: ADDON_DEFAULTS.efsDriverPolicyArn });
    return role;
  }
}

/**
 * What `triton-ops verify` applies: every Kubernetes object under the given paths (YAML files and the
 * `kubernetes_manifest` resources of Terraform JSON, read by check's loader), the node pools of the Terraform stacks
 * (`aws_eks_node_group`), and the CRDs of the crds folder, in the order a cluster takes them.
 */
import { isRecord } from '../../testing/objects';
import { findInputs } from '../check-files';
import type { KubeObject } from './kube-api';

/** One object and where it was read. */
export interface Manifest {
  readonly file: string;
  /** `Kind namespace/name` or `Kind name`, as check's report names objects. */
  readonly id: string;
  readonly object: KubeObject;
}

/** A node pool of the infra stack: what verify makes simulated nodes of. */
export interface NodePoolSpec {
  /** The Terraform resource address (`aws_eks_node_group.<key>`). */
  readonly address: string;
  readonly file: string;
  /** The node group's name (`node_group_name`), EKS's `eks.amazonaws.com/nodegroup` label. */
  readonly name: string;
  readonly instanceTypes: readonly string[];
  /** One zone per subnet: how many zones the pool's nodes spread over. */
  readonly zones: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly { key: string; value?: string; effect: string }[];
  readonly minSize: number;
  readonly desiredSize: number;
  readonly maxSize: number;
}

export interface VerifyInputs {
  readonly manifests: Manifest[];
  readonly nodePools: NodePoolSpec[];
  readonly problems: string[];
}

const isObject = (v: unknown): v is KubeObject =>
  isRecord(v) && typeof v.apiVersion === 'string' && typeof v.kind === 'string' && isRecord(v.metadata) && typeof v.metadata.name === 'string';

export const idOf = (o: KubeObject): string =>
  `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

/** EKS taint effects as Terraform writes them (NO_SCHEDULE) and as Kubernetes does (NoSchedule). */
const EFFECTS: Readonly<Record<string, string>> = { NO_SCHEDULE: 'NoSchedule', NO_EXECUTE: 'NoExecute', PREFER_NO_SCHEDULE: 'PreferNoSchedule' };

export function readInputs(paths: readonly string[]): VerifyInputs {
  const found = findInputs(paths);
  const problems = found.unreadable.map((u) => `${u.file}: ${u.problem}`);
  const manifests: Manifest[] = [];
  for (const o of found.objects) {
    if (o.parseErrors) { problems.push(`${o.file} document ${o.document}: ${o.parseErrors.join('; ')}`); continue; }
    if (!isObject(o.value)) continue;
    manifests.push({ file: o.address ? `${o.file} (${o.address})` : o.file, id: idOf(o.value), object: o.value });
  }
  const nodePools: NodePoolSpec[] = [];
  for (const { file, config } of found.terraform) {
    const groups = isRecord(config) && isRecord(config.resource) && isRecord(config.resource.aws_eks_node_group) ? config.resource.aws_eks_node_group : {};
    for (const [key, g] of Object.entries(groups)) {
      if (!isRecord(g)) continue;
      const scaling = isRecord(g.scaling_config) ? g.scaling_config : {};
      nodePools.push({
        address: `aws_eks_node_group.${key}`, file, name: String(g.node_group_name ?? key),
        zones: Math.max(1, Array.isArray(g.subnet_ids) ? g.subnet_ids.length : 1),
        instanceTypes: Array.isArray(g.instance_types) ? g.instance_types.map(String) : [],
        labels: isRecord(g.labels) ? Object.fromEntries(Object.entries(g.labels).map(([k, v]) => [k, String(v)])) : {},
        taints: (Array.isArray(g.taint) ? g.taint : []).filter(isRecord).map((t) => ({
          key: String(t.key), ...(t.value !== undefined ? { value: String(t.value) } : {}), effect: EFFECTS[String(t.effect)] ?? String(t.effect),
        })),
        minSize: Number(scaling.min_size ?? 0), desiredSize: Number(scaling.desired_size ?? scaling.min_size ?? 0),
        maxSize: Number(scaling.max_size ?? 0),
      });
    }
  }
  return { manifests, nodePools, problems };
}

/** The order objects are applied in: CRDs, then Namespaces, then the rest as read (cluster-scoped kinds first). */
const RANK: Readonly<Record<string, number>> = { CustomResourceDefinition: 0, Namespace: 1, PriorityClass: 2, StorageClass: 2, ClusterRole: 2 };
export function applyOrder(manifests: readonly Manifest[]): Manifest[] {
  return manifests.map((m, i) => ({ m, i })).sort((a, b) => ((RANK[a.m.object.kind] ?? 3) - (RANK[b.m.object.kind] ?? 3)) || a.i - b.i)
    .map(({ m }) => m);
}

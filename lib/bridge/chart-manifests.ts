import { ApiObject, Chart } from 'cdk8s';
import { TerraformStack } from 'cdktf';
import { Manifest } from '@cdktf/provider-kubernetes/lib/manifest';
// Type-only: the provider is created by the caller, so loading its module is the caller's cost.
import type { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { Construct } from 'constructs';
import { problem, Problems, TritonOpsError } from '../private/errors';
import { ChartManifest } from './chart-manifest';
import { describeObject, KubeObject, kubeObjectProblems, manifestResourceId } from '../triton/serving/kube-object';
import { DependencyIndex, manifestTier } from './manifest-order';
import { withQuietCreationStacks } from './quiet-creation-stacks';
import { escapeTemplates, JsonValue, TokenScan } from '../private/terraform-escape';
import { addProblemValidation } from '../private/construct-place';

export interface ChartManifestsProps {
  /**
   * The cdk8s chart whose objects Terraform manages; charts nested inside it are included, so several charts
   * that must be ordered together (a Namespace in one, its workloads in another) go under one parent chart.
   * The chart is rendered when ChartManifests is constructed, so build it completely first: objects added
   * later fail synth instead of being left out.
   */
  readonly chart: Chart;
  /**
   * Kubernetes provider of every manifest.
   * @default - the stack's default (unaliased) kubernetes provider
   */
  readonly provider?: KubernetesProvider;
}

/** Identifies one object of the chart, as Kubernetes does. */
export interface ManifestQuery {
  /** Kind, e.g. `Deployment`. */
  readonly kind: string;
  /** Object name. */
  readonly name: string;
  /** @default - a cluster-scoped object (or one rendered without a namespace) */
  readonly namespace?: string;
  /** Needed only when two groups define the same kind, e.g. `apps/v1`. @default - any */
  readonly apiVersion?: string;
}

/** One object of the chart on its way to a Manifest resource. */
interface Entry {
  readonly id: string;
  readonly object: KubeObject;
  readonly description: string;
}

/**
 * Ids already taken per stack, across every ChartManifests in it: two bridges rendering the same object
 * would otherwise write one Terraform resource over the other without a word.
 */
const takenIds = new WeakMap<TerraformStack, Map<string, string>>();

/**
 * The objects of cdk8s charts as `kubernetes_manifest` resources of a cdktf stack, so that one
 * `terraform apply` creates the AWS infrastructure's consumers with the same references (an IAM role ARN
 * in a ServiceAccount annotation stays a live Terraform reference).
 *
 * - Resource ids come from apiVersion/kind/namespace/name (`apps_v1_deployment_inference_classifier`):
 *   they are Terraform state addresses, so they must not move when constructs do.
 * - Every string and key is escaped for Terraform's template syntax (`${` -> `$${`, `%{` -> `%%{`) except
 *   cdktf token markers; multi-line strings stay multi-line.
 * - `depends_on` orders Namespaces and CustomResourceDefinitions first, then ServiceAccounts, ConfigMaps,
 *   Secrets, PVCs, PriorityClasses and RBAC, then workloads and the rest; each object waits only for what
 *   it needs (the dependency index of `manifest-order.ts`).
 */
export class ChartManifests extends Construct {
  /** One resource per Kubernetes object, sorted by resource id. Escape hatch for overrides and waits. */
  public readonly manifests: readonly Manifest[];

  private readonly byIdentity = new Map<string, { readonly apiVersion: string; readonly manifest: Manifest }[]>();

  public constructor(scope: Construct, id: string, props: ChartManifestsProps) {
    super(scope, id);
    const stack = stackOf(this);
    const charts = chartsUnder(props.chart);
    const entries = renderEntries(this.node.path, charts);
    reserveIds(stack, this.node.path, entries);

    const index = new DependencyIndex(entries);
    const created = new Map<Entry, Manifest>();
    // Earlier tiers first, so that every dependency exists when its dependant is created.
    const inApplyOrder = [...entries].sort((a, b) => manifestTier(a.object) - manifestTier(b.object) || compare(a.id, b.id));
    for (const entry of inApplyOrder) {
      const dependsOn = index.dependenciesOf(entry).sort((a, b) => compare(a.id, b.id)).map((d) => created.get(d)!);
      const scan: TokenScan = { holdsTokens: false };
      // An object in, an object out: escaping keeps the shape.
      const escaped = escapeTemplates(entry.object, scan) as { [key: string]: JsonValue };
      const manifest = withQuietCreationStacks(() => new ChartManifest(this, entry.id, {
        manifest: escaped,
        provider: props.provider,
        dependsOn: dependsOn.length === 0 ? undefined : dependsOn,
      }, scan.holdsTokens, dependsOn));
      // Nested constructs get a path-and-hash logical id by default; the contract is the object's identity.
      manifest.overrideLogicalId(entry.id);
      created.set(entry, manifest);
      const { kind, metadata } = entry.object;
      const key = identityKey(kind, metadata.namespace, metadata.name);
      this.byIdentity.set(key, [...(this.byIdentity.get(key) ?? []), { apiVersion: entry.object.apiVersion, manifest }]);
    }
    this.manifests = entries.map((entry) => created.get(entry)!);

    const rendered = countApiObjects(props.chart);
    addProblemValidation(this, () => {
        const now = countApiObjects(props.chart);
        return now === rendered ? [] : [problem(this.node.path, 'chart', `${now} objects`,
          `changed after ChartManifests rendered them (${rendered} objects then), so Terraform would not manage them all`,
          'create ChartManifests after the chart is complete')];
    });
  }

  /**
   * The resource of one object, or undefined when the chart holds no such object.
   * Throws when the query matches objects of several API groups and names no apiVersion.
   */
  public findManifest(query: ManifestQuery): Manifest | undefined {
    const candidates = (this.byIdentity.get(identityKey(query.kind, query.namespace, query.name)) ?? [])
      .filter((c) => query.apiVersion === undefined || c.apiVersion === query.apiVersion);
    if (candidates.length > 1) {
      throw new TritonOpsError(problem(this.node.path, 'findManifest', query,
        `matches ${candidates.map((c) => c.apiVersion).join(' and ')}`, 'add the apiVersion to the query'));
    }
    return candidates[0]?.manifest;
  }
}

/** Code-unit order: the same in every locale, unlike localeCompare. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const identityKey = (kind: string, namespace: string | undefined, name: string) => `${kind}\0${namespace ?? ''}\0${name}`;

function stackOf(bridge: Construct): TerraformStack {
  try {
    return TerraformStack.of(bridge);
  } catch {
    throw new TritonOpsError(`${bridge.node.path}: ChartManifests must be created inside a cdktf TerraformStack; `
      + 'pass the stack (or a construct in it) as scope');
  }
}

/** The chart and every chart nested in it, in construct-tree order. */
function chartsUnder(root: Chart): Chart[] {
  return root.node.findAll().filter((c): c is Chart => Chart.isChart(c));
}

/** Kubernetes objects under the chart, the measure of whether it changed after rendering. */
function countApiObjects(root: Chart): number {
  return root.node.findAll().filter((c) => ApiObject.isApiObject(c)).length;
}

/** Renders the charts and checks every object, reporting all problems at once; sorted by resource id. */
function renderEntries(path: string, charts: readonly Chart[]): Entry[] {
  const problems = new Problems(path);
  const entries: Entry[] = [];
  for (const chart of charts) {
    chart.toJson().forEach((document: unknown, i: number) => {
      const found = kubeObjectProblems(document, `${path}: chart '${chart.node.path}' document ${i}`);
      found.forEach((p) => problems.add(p));
      if (found.length > 0) return;
      const object = document as KubeObject;
      entries.push({ id: manifestResourceId(object), object, description: describeObject(object) });
    });
  }
  const owners = new Map<string, Entry>();
  for (const entry of entries) {
    const other = owners.get(entry.id);
    if (other === undefined) owners.set(entry.id, entry);
    else {
      problems.add(`${path}: ${other.description} and ${entry.description} both map to the Terraform resource id `
        + `'${entry.id}'; rename one of them`);
    }
  }
  problems.throwIfAny();
  return entries.sort((a, b) => compare(a.id, b.id));
}

/** Claims the ids in the stack, failing on any id another ChartManifests of the stack already uses. */
function reserveIds(stack: TerraformStack, path: string, entries: readonly Entry[]): void {
  const taken = takenIds.get(stack) ?? new Map<string, string>();
  takenIds.set(stack, taken);
  const clashes = entries.filter((e) => taken.has(e.id));
  if (clashes.length > 0) {
    throw new TritonOpsError(`${path}: ${clashes.map((e) => `${e.description} (resource id '${e.id}') is also rendered by ${taken.get(e.id)}`).join('; ')}; `
      + 'give each object to one ChartManifests only');
  }
  for (const entry of entries) taken.set(entry.id, `${path} (${entry.description})`);
}

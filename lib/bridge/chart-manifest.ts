import { Manifest, ManifestConfig } from '@cdktf/provider-kubernetes/lib/manifest';
import { IResolvable, IResolveContext } from 'cdktf';
import { Construct } from 'constructs';

/**
 * The Manifest resource of one chart object. It differs from its base class in one way only: cdktf's token
 * resolution does not walk the object's body when nothing in it can be a reference.
 *
 * cdktf walks every resource three times at synth: once "preparing" (to discover cross-stack references and
 * create their outputs and remote-state lookups), then twice to render. Over the manifest bodies these walks
 * were most of the serving stack's synth time (CPU profile, 1000 servers: the preparing walk alone 0.8 of
 * 2.9 s), and they change nothing in a body without tokens. Such a body is handed over whole instead. A body
 * with tokens, or with overrides (which may add some), is walked as before.
 */
export class ChartManifest extends Manifest {
  public constructor(
    scope: Construct, id: string, config: ManifestConfig, private readonly holdsTokens: boolean,
    /** The manifests of `config.dependsOn`, to write their addresses without resolving tokens. */
    private readonly dependencies: readonly Manifest[] = [],
  ) {
    super(scope, id, config);
  }

  // Wrapped here, before cdktf's toTerraform copies the attributes deeply (processDynamicAttributes, deepMerge):
  // a class instance is neither descended into nor copied, so the body is handed over whole.
  protected override synthesizeAttributes(): { [name: string]: any } {
    const attributes = super.synthesizeAttributes();
    if (!this.plain()) return attributes;
    // Unset blocks (wait, timeouts, ...) are dropped here rather than visited by each of cdktf's walks.
    const defined = Object.entries(attributes).filter(([, value]) => value !== undefined);
    return { ...Object.fromEntries(defined), manifest: new VerbatimBody(attributes.manifest) };
  }

  /**
   * A plain block (body, `depends_on` on other manifests of the stack, cdktf's metadata) is written out here, as
   * cdktf would render it, and handed over whole: cdktf's per-resource walks were most of what is left of the
   * bridge's synth time. Anything else in the block (a provider, lifecycle, count, overrides) goes cdktf's way.
   */
  public override toTerraform(): any {
    const terraform = super.toTerraform();
    const blocks = terraform.resource?.[this.terraformResourceType];
    const block = blocks?.[this.friendlyUniqueId];
    const plainKeys = ['//', 'depends_on', 'manifest'];
    if (!this.plain() || block === undefined || Object.keys(block).some((k) => !plainKeys.includes(k))) return terraform;
    const dependsOn = this.dependencies.map((d) => `${d.terraformResourceType}.${d.friendlyUniqueId}`);
    if ((block.depends_on?.length ?? 0) !== dependsOn.length) return terraform;
    // Two stages: TerraformStack.toTerraform resolves each resource's fragment, merges the fragments, then resolves
    // the merged document again; the block stays wrapped through the first and is handed over by the second.
    blocks[this.friendlyUniqueId] = new VerbatimBody({
      '//': block['//'],
      ...(dependsOn.length > 0 ? { depends_on: dependsOn } : {}),
      manifest: (block.manifest as VerbatimBody).value,
    }, 2);
    return terraform;
  }

  /** Nothing in the body needs resolving and nothing was overridden. */
  private plain(): boolean {
    return !this.holdsTokens && Object.keys(this.rawOverrides).length === 0 && this.manifestInput !== undefined;
  }
}

/**
 * A value cdktf takes as it is: resolving gives an empty object (nothing to walk), and a post-processor puts
 * the value (or, before the last stage, a wrapper one stage shorter) in its place once cdktf's recursion is done.
 * The preparing pass keeps the empty object.
 */
class VerbatimBody implements IResolvable {
  public readonly creationStack: string[] = [];

  /** @param stages how many resolutions (outside the preparing pass) keep it wrapped, the last one included */
  public constructor(public readonly value: unknown, private readonly stages = 1) {}

  public resolve(context: IResolveContext): unknown {
    if (!context.preparing) {
      const next = this.stages > 1 ? new VerbatimBody(this.value, this.stages - 1) : this.value;
      context.registerPostProcessor({ postProcess: () => next });
    }
    return {};
  }

  public toString(): string {
    return 'kubernetes_manifest body';
  }
}

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
  public constructor(scope: Construct, id: string, config: ManifestConfig, private readonly holdsTokens: boolean) {
    super(scope, id, config);
  }

  // Wrapped here, before cdktf's toTerraform copies the attributes deeply (processDynamicAttributes, deepMerge):
  // a class instance is neither descended into nor copied, so the body is handed over whole.
  protected override synthesizeAttributes(): { [name: string]: any } {
    const attributes = super.synthesizeAttributes();
    const hasOverrides = Object.keys(this.rawOverrides).length > 0;
    if (this.holdsTokens || hasOverrides || attributes.manifest === undefined) return attributes;
    // Unset blocks (wait, timeouts, ...) are dropped here rather than visited by each of cdktf's walks.
    const defined = Object.entries(attributes).filter(([, value]) => value !== undefined);
    return { ...Object.fromEntries(defined), manifest: new VerbatimBody(attributes.manifest) };
  }
}

/**
 * A value cdktf takes as it is: resolving gives an empty object (nothing to walk), and a post-processor puts
 * the value in its place once cdktf's recursion is done. The preparing pass keeps the empty object.
 */
class VerbatimBody implements IResolvable {
  public readonly creationStack: string[] = [];

  public constructor(private readonly value: unknown) {}

  public resolve(context: IResolveContext): unknown {
    if (!context.preparing) context.registerPostProcessor({ postProcess: () => this.value });
    return {};
  }

  public toString(): string {
    return 'kubernetes_manifest body';
  }
}

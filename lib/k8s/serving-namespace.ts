import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { removeNamespaceOfClusterScoped } from '../private/cluster-scoped';
import { Problems } from '../private/errors';
import { MANAGED_BY } from './labels';
import { checkDedicatedNamespace } from '../private/kubernetes-names';
import { placeOf } from '../private/construct-place';

export interface ServingNamespaceProps {
  /** Namespace name; never `default`. */
  readonly name: string;
  /** Extra labels, e.g. `istio-injection: enabled`. @default - none */
  readonly labels?: Record<string, string>;
}

/** Pod Security level enforced on serving namespaces: everything triton-ops runs there passes it. */
export const SERVING_POD_SECURITY = 'restricted';

/**
 * The namespace Triton servers run in, with the `restricted` Pod Security Standard enforced, audited and
 * warned, so that a pod that loses its hardening is refused by the API server instead of running.
 */
export class ServingNamespace extends Construct {
  public readonly namespace: kplus.Namespace;

  public constructor(scope: Construct, id: string, props: ServingNamespaceProps) {
    super(scope, id);
    const p = new Problems(placeOf(this));
    checkDedicatedNamespace(p, 'name', props.name, 'must be a dedicated namespace, not default', "use a name such as 'inference'");
    p.throwIfAny();
    const metadata: ApiObjectMetadata = {
      name: props.name,
      labels: {
        ...MANAGED_BY,
        ...props.labels,
        'pod-security.kubernetes.io/enforce': SERVING_POD_SECURITY,
        'pod-security.kubernetes.io/audit': SERVING_POD_SECURITY,
        'pod-security.kubernetes.io/warn': SERVING_POD_SECURITY,
      },
    };
    this.namespace = new kplus.Namespace(this, 'Resource', { metadata });
    removeNamespaceOfClusterScoped(ApiObject.of(this.namespace));
  }
}

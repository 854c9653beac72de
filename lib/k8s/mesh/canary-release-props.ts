import type { ITritonServer } from '../triton-server-ref';
import { MeshGateway } from './gateway';
import type { CanaryReleaseOptions } from '../../triton/routing/canary-options';

/** One version of a released service: a name and the server that runs it. */
export interface CanaryVersion {
  /**
   * Version name, e.g. `v1`: the pod label `version: <version>` and the DestinationRule subset name. A DNS label
   * (lowercase letters, digits and -), because Istio refuses other subset names.
   */
  readonly version: string;
  /** The server of this version; its pod template gets the version and release labels (never its selector). */
  readonly server: ITritonServer;
}

export interface CanaryReleaseProps extends CanaryReleaseOptions {
  /**
   * The service name: names the release Service, its DestinationRule and VirtualService, and the pod label
   * `triton-ops.io/release: <name>`. A DNS label different from every server name (the servers keep their own
   * Services).
   */
  readonly name: string;
  /**
   * The versions, the stable one first and the canary last. At least two, distinct names, distinct servers, all in
   * one namespace and serving the same model names.
   */
  readonly versions: CanaryVersion[];
  /**
   * Gateway the release is exposed through. Its namespace must be admitted by the NetworkPolicy of every version's
   * server (`clientNamespaces`), or the gateway's requests would be dropped.
   * @default - none: the release applies to callers inside the mesh only
   */
  readonly gateway?: MeshGateway;
}

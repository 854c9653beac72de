// The options of a canary release as plain data (what a fleet's release describes); CanaryReleaseProps adds the
// release's name, its versions' servers and its gateway, which are constructs.
import type { RouteOptions } from './route-options';

/** A request header match. Give exactly one of `exact` and `regex`. */
export interface CanaryHeaderMatch {
  /** Header name, lowercase as HTTP/2 sends it (Istio matches lowercase names only), e.g. `x-ab-test-group`. */
  readonly header: string;
  /** The header equals this value. @default - none: give `regex` */
  readonly exact?: string;
  /**
   * The whole header value matches this RE2 regular expression (Envoy anchors it), e.g. `.*[02468]` for even user ids.
   * @default - none: give `exact`
   */
  readonly regex?: string;
}

/**
 * A header match evaluated before the weighted route: requests whose header matches go to `version`, whatever the
 * weights say (A/B tests, opted-in users, internal testers). Give exactly one of `exact` and `regex`.
 */
export interface CanaryHeaderRoute extends CanaryHeaderMatch {
  /** The version that gets the matching requests; one of the release's versions. */
  readonly version: string;
}

/** Shadow traffic: a copy of a share of the weighted route's requests goes to `version`; its answers are dropped. */
export interface CanaryMirror {
  /** The version that receives the copies, normally the canary. */
  readonly version: string;
  /** Share of the requests copied, in percent: more than 0, at most 100 (fractions allowed, e.g. 0.5). */
  readonly percent: number;
}

/**
 * Fault injection, for resilience tests of the clients only (a release to production carries none). Applied to every
 * route of the release. Istio does not retry or time out a route that injects faults on the client side, so the
 * retries and timeout are inactive while a fault is set.
 * @see https://istio.io/latest/docs/reference/config/networking/virtual-service/#HTTPFaultInjection
 */
export interface CanaryFault {
  /** Delay added before forwarding, in milliseconds. @default - no delay */
  readonly delayMs?: number;
  /** HTTP status answered instead of forwarding (200-599). @default - no abort */
  readonly abortHttpStatus?: number;
  /** Share of requests that get the delay and/or the abort, in percent (more than 0, at most 100). */
  readonly percent: number;
}

/** A canary release's options but its name, its servers and its gateway (constructs): what a fleet's release describes. */
export interface CanaryReleaseOptions extends RouteOptions {
  /**
   * The staged plan of the canary's share in percent: strictly increasing whole numbers in 1..100 ending at 100
   * (full promotion). Only read with `stage`.
   * @default [1, 10, 50, 100]
   */
  readonly stages?: number[];
  /**
   * Index into `stages` of the current stage: the canary (last version) gets `stages[stage]` percent, the stable
   * version (first) the rest. Promotion and rollback are this one number; the output then differs only in weights.
   * Give `stage` or `weights`, not both; with more than two versions only `weights`.
   * @default - none: `stage` or `weights` is required
   */
  readonly stage?: number;
  /**
   * Explicit weights by version name, whole percentages summing to 100; a version left out gets 0 (it then stays
   * reachable through headerRoutes and mirror only). Required with more than two versions.
   * @default - from `stages` and `stage`
   */
  readonly weights?: Record<string, number>;
  /**
   * Header matches evaluated in order before the weighted route, so that requests without those headers (health
   * probes, crawlers) only reach a version through its weight.
   * @default - none: every request takes the weighted route
   */
  readonly headerRoutes?: CanaryHeaderRoute[];
  /**
   * Limits the weighted split to the requests that match one of these headers (e.g. a valid `x-user-id`, so that a
   * user stays on one version while the weights stay); every other request goes to the stable version (the first), in
   * a last route named `stable`. `headerRoutes` still come first. The stable route never changes with the stage or
   * the weights, so promotion and rollback still differ only in the weights. At full promotion only the matching
   * requests reach the canary: to move everyone, promote the canary to be the first version, or remove this.
   * @default - none: every request that no header route takes goes through the weighted split
   */
  readonly splitOnlyFor?: CanaryHeaderMatch[];
  /** Shadow traffic to a version. @default - no mirroring */
  readonly mirror?: CanaryMirror;
  /** Fault injection for tests. @default - no faults */
  readonly fault?: CanaryFault;
  /**
   * Hosts the VirtualService answers for; through a gateway each must fall within the gateway's hosts.
   * @default - the gateway's hosts when a gateway is given, else the release Service's in-cluster host
   * (`<name>.<namespace>.svc.cluster.local`)
   */
  readonly hosts?: string[];
  /**
   * Hosts of `hosts` in the cluster domain (`<svc>.<ns>.svc.cluster.local`) whose Service this app does not define,
   * declared on purpose: e.g. a Service of another app or a ServiceEntry. Every other host of the cluster domain must be
   * the FQDN of a TritonServer's or CanaryRelease's Service of the app (checked at synth), or the VirtualService would
   * route nothing (CHECKLIST M02). Each entry must be one of `hosts`.
   * @default - none: every host of the cluster domain is a Service of the app
   */
  readonly externalHosts?: string[];
}

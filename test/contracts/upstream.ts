/**
 * Contract tests against the pinned upstream releases: each fact a pinned chart (or driver) states, that the fleet's
 * output depends on, is one row with its citation `owner/repo:path@tag line N` (read at that tag) and a check of our real
 * plan, values or synthesized objects. A row's tag must be the version the add-on module pins, so moving a pin without
 * reading the chart again at the new tag fails here.
 */
import { Testing } from 'cdk8s';
import { FleetChart } from '../../lib';
import { FleetDescription } from '../../lib/fleet/index';
import { planAddons } from '../../lib/fleet/addons/addon-plan';
import type { HelmReleasePlan } from '../../lib/fleet/addons/addon-module';
import { planFleet } from '../../lib/fleet/fleet-plan';

/** One fact of a pinned upstream release. */
export interface UpstreamFact {
  /** What the upstream release does, in words. */
  readonly fact: string;
  /** `owner/repo:path@ref line N` (or `lines N-M`). */
  readonly citation: string;
  /** Asserts that our output satisfies the fact. */
  readonly holds: () => void;
}

/** A citation's parts. */
export interface Citation {
  readonly repo: string;
  readonly path: string;
  readonly ref: string;
  readonly line: number;
}

const CITATION = /^([\w.-]+\/[\w.-]+):([^@\s]+)@(\S+) lines? (\d+)(?:-\d+)?$/;

/** The parts of `citation`; throws when it is not `owner/repo:path@ref line N`. */
export function parseCitation(citation: string): Citation {
  const m = CITATION.exec(citation);
  if (!m) throw new Error(`not a citation 'owner/repo:path@ref line N': ${citation}`);
  return { repo: m[1], path: m[2], ref: m[3], line: Number(m[4]) };
}

/**
 * The facts as one table: each row's citation names the ref `pins` gives its repository (the pinned version), and our
 * output satisfies the fact.
 */
export function describeFacts(title: string, pins: Readonly<Record<string, string>>, facts: readonly UpstreamFact[]): void {
  describe(title, () => {
    test.each(facts.map((f) => [f.fact, f] as const))('%s', (_, f) => {
      const c = parseCitation(f.citation);
      expect({ repo: c.repo, ref: c.ref }).toEqual({ repo: c.repo, ref: pins[c.repo] });
      f.holds();
    });
  });
}

/** The Helm release `id` of the fleet's add-ons plan. */
export function releaseOf(fleet: FleetDescription, id: string): HelmReleasePlan {
  const release = planAddons(planFleet(fleet)).releases.find((r) => r.id === id);
  if (release === undefined) throw new Error(`${fleet.name}: no release '${id}'`);
  return release;
}

/** The values of the Helm release `id` of the fleet, as the stack writes them (one JSON document). */
export function valuesOf(fleet: FleetDescription, id: string): any {
  return JSON.parse(JSON.stringify(releaseOf(fleet, id).values));
}

const synthesized = new WeakMap<FleetDescription, any[]>();

/** Every object of the fleet's chart (synthesized once per description). */
export function objectsOf(fleet: FleetDescription): any[] {
  if (!synthesized.has(fleet)) synthesized.set(fleet, Testing.synth(new FleetChart(Testing.app(), fleet.name, { fleet })));
  return synthesized.get(fleet)!;
}

/** A Kubernetes label selector (matchLabels and matchExpressions). */
export interface Selector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly { readonly key: string; readonly operator: string; readonly values?: readonly string[] }[];
}

/** Whether `labels` satisfy `selector`, as the API server evaluates it; an empty selector selects everything. */
export function selects(selector: Selector, labels: Readonly<Record<string, string>>): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpression = (selector.matchExpressions ?? []).every((e) => {
    const has = Object.hasOwn(labels, e.key);
    switch (e.operator) {
      case 'In': return has && (e.values ?? []).includes(labels[e.key]);
      case 'NotIn': return !has || !(e.values ?? []).includes(labels[e.key]);
      case 'Exists': return has;
      case 'DoesNotExist': return !has;
      default: throw new Error(`unknown selector operator ${e.operator}`);
    }
  });
  return byLabel && byExpression;
}

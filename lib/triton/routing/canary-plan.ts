/**
 * The arithmetic of a canary release, pure (no cdk8s): which share of the traffic each version gets, from a staged
 * plan and a stage index or from explicit weights. Kept apart from the construct so that the rules a promotion
 * must obey (integers, sum 100, stable first and canary last) are readable and testable on their own.
 */
import { isWhole } from '../../private/checks';
import { Problems, show } from '../../private/errors';

/** Defaults of CanaryReleaseProps, one named constant each (asserted by the tests). */
export const CANARY_RELEASE_DEFAULTS = {
  /** 1% -> 10% -> 50% -> 100%: the usual progressive-delivery ladder (Argo Rollouts, Flagger). */
  stages: [1, 10, 50, 100] as readonly number[],
} as const;

/** Pod label naming the release a server belongs to; the release Service selects it. */
export const RELEASE_LABEL = 'triton-ops.io/release';
/**
 * Pod label naming the version of a server within its release; DestinationRule subsets select it. `version` is
 * the label Istio's own telemetry and Kiali read.
 */
export const VERSION_LABEL = 'version';

/** A version's share of the weighted route, in percent. */
export interface VersionWeight {
  readonly version: string;
  readonly weight: number;
}

/** What decides the weights: a stage of a staged plan, or explicit weights. */
export interface WeightInput {
  /** Version names in release order: the stable one first, the canary last. */
  readonly versions: readonly string[];
  readonly stages?: readonly number[];
  readonly stage?: number;
  readonly weights?: Readonly<Record<string, number>>;
}


/** Checks a staged plan: strictly increasing whole percentages in 1..100 that end at 100. */
export function checkStages(p: Problems, stages: readonly number[]): boolean {
  const ok = stages.length > 0 && stages.every((s, i) => isWhole(s, 1, 100) && (i === 0 || s > stages[i - 1]))
    && stages[stages.length - 1] === 100;
  p.check(ok, 'stages', stages,
    'must be strictly increasing whole percentages of canary traffic in 1..100 that end at 100 (full promotion)',
    `e.g. ${show(CANARY_RELEASE_DEFAULTS.stages)}`);
  return ok;
}

/**
 * Resolves the weight of every version (in release order, zero weights kept) or records why it cannot.
 * In stage mode the canary (last version) gets `stages[stage]` and the stable one (first) the rest.
 */
export function resolveWeights(p: Problems, input: WeightInput): VersionWeight[] | undefined {
  const { versions, stage, weights } = input;
  const stages = input.stages ?? CANARY_RELEASE_DEFAULTS.stages;
  const example = show(Object.fromEntries(versions.map((v, i) => [v, i === 0 ? 100 - (versions.length - 1) * 5 : 5])));
  if (weights !== undefined) {
    p.check(stage === undefined, 'stage', stage, `cannot be combined with explicit 'weights' (${show(weights)})`,
      "keep one: 'stage' to follow the staged plan, or 'weights'");
    p.check(input.stages === undefined, 'stages', input.stages, "is only read with 'stage', but explicit 'weights' are given",
      "remove 'stages', or replace 'weights' with 'stage'");
    return explicitWeights(p, versions, weights, example);
  }
  if (stage === undefined) {
    p.check(false, 'stage', stage, "must be given (an index into 'stages'), or explicit 'weights'",
      versions.length > 2 ? `with ${versions.length} versions give 'weights', e.g. ${example}` : `e.g. stage: 0 for ${stages[0] ?? 1}% canary`);
    return undefined;
  }
  if (versions.length > 2) {
    p.check(false, 'stage', stage,
      `only splits traffic between two versions (the first, stable, and the last, canary), but the release has ${versions.length}`,
      `give explicit 'weights' instead, e.g. ${example}`);
    return undefined;
  }
  if (!checkStages(p, stages)) return undefined;
  const inRange = isWhole(stage, 0, stages.length - 1);
  p.check(inRange, 'stage', stage, `is not an index of stages ${show(stages)}`,
    `use 0 (${stages[0]}% canary) to ${stages.length - 1} (${stages[stages.length - 1]}%, full promotion)`);
  if (!inRange || versions.length < 2) return undefined;
  const canary = stages[stage];
  return [{ version: versions[0], weight: 100 - canary }, { version: versions[versions.length - 1], weight: canary }];
}

function explicitWeights(p: Problems, versions: readonly string[], weights: Readonly<Record<string, number>>, example: string) {
  let valid = true;
  for (const [version, weight] of Object.entries(weights)) {
    const known = versions.includes(version);
    p.check(known, `weights.${version}`, weight, 'names a version that is not part of the release',
      `use one of ${show(versions)}`);
    const whole = isWhole(weight, 0, 100);
    p.check(whole, `weights.${version}`, weight, 'must be a whole number from 0 to 100 (Istio weights are integers)',
      'give a whole percentage, keeping the sum of all weights at 100');
    valid = valid && known && whole;
  }
  if (!valid) return undefined;
  const sum = Object.values(weights).reduce((a, b) => a + b, 0);
  p.check(sum === 100, 'weights', weights, `sum to ${sum}, not 100`, `make them add up to 100, e.g. ${example}`);
  if (sum !== 100) return undefined;
  return versions.map((version) => ({ version, weight: weights[version] ?? 0 }));
}

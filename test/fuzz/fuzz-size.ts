/** The size of `npm run fuzz`, shared by its sample in `npm test` (which draws from the same case list). */

/** Mutations drawn besides the structural ones and the controls: over 1,000 cases, under 3 minutes on 2 shared cores. */
export const FUZZ_COUNT = 1100;

/**
 * Shares of the drawn mutations that synthesize the three Terraform stacks too, besides every structural case and control:
 * a case with them takes about 5 times as long as the chart alone, and they are most of the run's time.
 */
export const TERRAFORM_SHARE = { description: 0.12, models: 0.03 };

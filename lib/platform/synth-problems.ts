import { problemsOf } from '../private/errors';

/**
 * Runs `build`; the problems it reports (a TritonOpsError, a cdk8s or cdktf validation failure) join `problems` and
 * undefined is returned, so that the caller goes on and reports every problem together. Anything else is a bug and
 * propagates.
 */
export function collectProblems<T>(problems: string[], build: () => T): T | undefined {
  try {
    return build();
  } catch (error) {
    const found = problemsOf(error);
    if (found === undefined) throw error;
    problems.push(...found);
    return undefined;
  }
}

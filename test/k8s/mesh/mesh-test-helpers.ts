/** Fixtures of the mesh tests: the whole message of an error, and a matcher that reads Istio StringMatch like Envoy. */
import { HttpMatchRequest } from '../../../lib/k8s/mesh/istio-types';

export { messageOf } from '../../helpers';

/** The message cdk8s gives when `node.addValidation` checks fail at synth. */
export const synthError = (path: string, message: string) =>
  `Validation failed with the following errors:\n  [${path}] ${message}`;

/**
 * True when some match admits `path` as Envoy would: exact, prefix, or a regex that must match the whole path
 * (the patterns use only syntax that RE2 and JavaScript read the same way).
 */
export function routed(matches: readonly HttpMatchRequest[], path: string): boolean {
  return matches.some(({ uri }) => uri !== undefined && (
    (uri.exact !== undefined && uri.exact === path)
    || (uri.prefix !== undefined && path.startsWith(uri.prefix))
    || (uri.regex !== undefined && new RegExp(`^(?:${uri.regex})$`).test(path))));
}

import { Problems } from './errors';

/**
 * Kubernetes name rules, one definition each.
 * @see https://kubernetes.io/docs/concepts/overview/working-with-objects/names/
 */

/** RFC 1123 label: namespaces, most object names (at most 63 lowercase alphanumerics and `-`). */
export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** RFC 1035 label: Service names, which must also start with a letter. */
export const DNS_1035_LABEL = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** RFC 1123 subdomain: PersistentVolumeClaims, Secrets, ServiceAccounts (at most 253 characters, dot-separated). */
export const DNS_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Key of a Secret's (or ConfigMap's) data: letters, digits, `-`, `_` and `.`. */
export const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;

/** Label name (the part after an optional `prefix/`): at most 63 alphanumerics, `-`, `_`, `.`, alphanumeric at both ends. */
const LABEL_NAME = '[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?';

/** Label key: an optional DNS-subdomain prefix and `/`, then a label name. */
export const LABEL_KEY = new RegExp(`^([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?${LABEL_NAME}$`);

/** Label value: empty, or a label name. */
export const LABEL_VALUE = new RegExp(`^(${LABEL_NAME})?$`);

/** Namespaces Kubernetes itself owns: triton-ops never creates, relabels or binds roles to workloads in them. */
export const RESERVED_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** The namespace-name rule (an RFC 1123 label) with its fix, for every construct that takes a namespace. */
export function checkNamespaceName(p: Problems, prop: string, name: string): boolean {
  const ok = DNS_LABEL.test(name);
  p.check(ok, prop, name, 'is not a valid namespace name',
    'use at most 63 lowercase letters, digits and -, starting and ending with a letter or digit');
  return ok;
}

/** A namespace of its own: a valid name that is not `default`, refused there with the caller's `what` and `fix`. */
export function checkDedicatedNamespace(p: Problems, prop: string, name: string, what: string, fix: string): void {
  if (checkNamespaceName(p, prop, name)) p.check(name !== 'default', prop, name, what, fix);
}

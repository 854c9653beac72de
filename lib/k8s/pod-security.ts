/**
 * The restricted security context of every pod the library runs (CHECKLIST): a fixed unprivileged uid, no root, a
 * read-only root filesystem, no privilege escalation, every capability dropped, seccomp RuntimeDefault. One source
 * for the cdk8s-plus shape (TritonServer) and the plain Kubernetes shape (TritonLoadTest's Job); and the literal
 * environment a container with a read-only root needs.
 */
import * as kplus from 'cdk8s-plus-28';
import { TRITON_SERVER_DEFAULTS } from '../triton/serving/server-defaults';

/** The uid and gid of every container (TRITON_SERVER_DEFAULTS.runAsUser). */
const RUN_AS_USER = TRITON_SERVER_DEFAULTS.runAsUser;

/** A container's context, for cdk8s-plus workloads. */
export const RESTRICTED_CONTAINER: kplus.ContainerSecurityContextProps = Object.freeze({
  ensureNonRoot: true,
  user: RUN_AS_USER,
  group: RUN_AS_USER,
  readOnlyRootFilesystem: true,
  allowPrivilegeEscalation: false,
  privileged: false,
  capabilities: { drop: [kplus.Capability.ALL] },
});

/** The same context for plain Kubernetes objects. */
export const RESTRICTED_CONTAINER_SPEC: kplus.k8s.SecurityContext = Object.freeze({
  runAsNonRoot: true, runAsUser: RUN_AS_USER, runAsGroup: RUN_AS_USER, readOnlyRootFilesystem: true,
  allowPrivilegeEscalation: false, privileged: false, capabilities: { drop: ['ALL'] },
});

/** The pod-level context of plain Kubernetes objects; volumes are group-owned by the same uid. */
export const RESTRICTED_POD_SPEC: kplus.k8s.PodSecurityContext = Object.freeze({
  runAsNonRoot: true, runAsUser: RUN_AS_USER, runAsGroup: RUN_AS_USER, fsGroup: RUN_AS_USER,
  fsGroupChangePolicy: 'OnRootMismatch', seccompProfile: { type: 'RuntimeDefault' },
});

/**
 * Literal environment variables, sorted by name, over `HOME=/tmp`: the root filesystem is read-only, so caches that
 * default to $HOME go to the /tmp emptyDir. Later records win.
 */
export function literalEnvironment(...records: Readonly<Record<string, string>>[]): Record<string, kplus.EnvValue> {
  const literal: Record<string, string> = Object.assign({ HOME: '/tmp' }, ...records);
  return Object.fromEntries(Object.keys(literal).sort().map((key) => [key, kplus.EnvValue.fromValue(literal[key])]));
}

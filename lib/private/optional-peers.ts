/**
 * The optional peer dependencies of 'triton-ops/aws' and 'triton-ops/bridge' (cdktf and the providers), checked
 * before those entry points load anything, and before synthFleet's `terraformDir` loads the stacks, so a YAML-only
 * install (cdk8s, cdk8s-plus-28, constructs) that asks for them gets one clear error naming what to install instead
 * of "Cannot find module 'cdktf'" from deep inside. The ranges are package.json's peerDependencies
 * (test/packaging/optional-peers.test.ts keeps them equal).
 */
export const OPTIONAL_PEERS = {
  'cdktf': '^0.21.0',
  '@cdktf/provider-aws': '^20.1.0',
  '@cdktf/provider-kubernetes': '^12.1.0',
  '@cdktf/provider-helm': '^12.1.2',
} as const;

export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/**
 * The optional peer dependencies of `triton-ops check` with their ranges (package.json peerDependencies; the
 * packaging test keeps them equal): the schema packages (lib/cli/check-schema.ts). The YAML parser is the `yaml`
 * copy cdk8s bundles (lib/cli/check-files.ts).
 */
export const CHECK_PEERS = {
  'kubernetes-models': '^5.1.0',
  '@kubernetes-models/istio': '^3.0.1',
  '@kubernetes-models/prometheus-operator': '^6.0.0',
  '@kubernetes-models/keda': '^2.0.0',
  '@kubernetes-models/karpenter': '^2.0.0',
} as const;

export type CheckPeer = keyof typeof CHECK_PEERS;

const PEER_RANGES: Readonly<Record<OptionalPeer | CheckPeer, string>> = { ...OPTIONAL_PEERS, ...CHECK_PEERS };

/** `<package>@<range>`, e.g. `cdktf@^0.21.0`. */
export const peerSpec = (peer: OptionalPeer | CheckPeer): string => `${peer}@${PEER_RANGES[peer]}`;

/** The command that installs `peers` at their ranges: `npm install [--save-dev] '<package>@<range>'...`. */
export function installCommand(peers: readonly (OptionalPeer | CheckPeer)[], options: { readonly dev?: boolean } = {}): string {
  return `npm install ${options.dev ? '--save-dev ' : ''}${peers.map((p) => `'${peerSpec(p)}'`).join(' ')}`;
}

/** Whether `name` resolves from triton-ops' own location (as its imports will), without loading it. */
function installed(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch (e) {
    // A package that exists but exports no main entry is still installed.
    return (e as NodeJS.ErrnoException).code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
  }
}

/**
 * The error for `user` (as the message names it: `'triton-ops/aws'`, `synthFleet's 'terraformDir'`) when some of
 * `peers` are missing; undefined when all are installed.
 */
export function missingPeersError(user: string, peers: readonly OptionalPeer[], isInstalled = installed): Error | undefined {
  const missing = peers.filter((p) => !isInstalled(p));
  if (missing.length === 0) return undefined;
  const specs = missing.map(peerSpec);
  const error = new Error(
    `${user} needs ${missing.length === 1 ? 'a package that is' : 'packages that are'} not installed: ${specs.join(', ')}. `
    + `cdktf and its providers are optional peer dependencies of triton-ops, loaded only by 'triton-ops/aws', `
    + `'triton-ops/bridge' and synthFleet's 'terraformDir' ('triton-ops' and 'triton-ops/fleet' need them for nothing `
    + `else). Install them with:\n`
    + `  ${installCommand(missing)}`,
  );
  error.name = 'TritonOpsMissingPeerError';
  return error;
}

/** Throws the error of missingPeersError for the entry point `entry` ('triton-ops/aws'). */
export function requireOptionalPeers(entry: string, peers: readonly OptionalPeer[]): void {
  const error = missingPeersError(`'${entry}'`, peers);
  if (error) throw error;
}

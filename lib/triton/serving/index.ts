/**
 * A Triton server's settings: its props and defaults (server-props, server-defaults), their one resolution
 * (resolveServerSettings), its command line, ports, APIs, requests and memory, its ids and object names, the repository
 * options, and the load test's options, sweep and results.
 * Pure: no cdk8s, no cdktf. Inside the package, import the module itself; this index is the sub-domain's face.
 */
export * from './aws-cli-image';
export * from './kube-object';
export * from './load-sweep';
export * from './load-test-options';
export * from './load-test-results';
export * from './local-repository-options';
export * from './model-access';
export * from './object-names';
export * from './replica-range';
export * from './s3-repository-options';
export * from './server-apis';
export * from './server-defaults';
export * from './server-flags';
export * from './server-ids';
export * from './server-memory';
export * from './server-ports';
export * from './server-props';
export * from './server-requests';
export * from './server-settings';

/**
 * Releases and their calendars: pins, lifecycles (end of life, warnings), the Triton release table, the EKS Kubernetes
 * versions and EKS add-on versions.
 * Pure: no cdk8s, no cdktf. Inside the package, import the module itself; this index is the sub-domain's face.
 */
export * from './eks-addon-versions';
export * from './eks-versions';
export * from './lifecycle';
export * from './pin';
export * from './triton-releases';

// 'triton-ops/bridge': cdk8s charts as Terraform kubernetes_manifest resources (cdktf).
export * from './chart-manifests';
export * from './manifest-order';
export * from '../platform/fleet-serving-stack';

/**
 * lib/aws's face: the AWS constructs (cdktf), with the pure GPU catalog and capacity arithmetic they use. Imports
 * provider submodules only, and no cdk8s. The 'triton-ops/aws' entry (lib/entries/aws.ts) adds the fleet's infra stack.
 */
import './require-peers'; // first: a clear error when cdktf or the AWS provider is missing
export { EksCluster, EksClusterProps, EKS_CLUSTER_DEFAULTS, IEksCluster } from './eks-cluster';
export { eksAddonDefaultVersion, eksAddonPin, EKS_ADDON_VERSION_DEFAULTS } from './eks-addon-version';
export {
  GpuNodeGroup, GpuNodeGroupProps, GPU_NODE_GROUP_DEFAULTS, GpuNodeGroupDefaults, GpuAmiType, GpuCapacityType,
} from './gpu-node-group';
export { ModelBucket, ModelBucketProps, MODEL_BUCKET_DEFAULTS, ExistingModelBucketOptions } from './model-bucket';
export { ExistingModelBucket, ExistingModelBucketProps } from './existing-model-bucket';
export { ModelConfigUploadOptions } from './model-config-objects';
export { IModelBucket } from './model-bucket-ref';
export { KarpenterInfra, KarpenterInfraProps, KARPENTER_INFRA_DEFAULTS } from './karpenter-infra';
export { ModelReaderRole, ModelReaderRoleProps, MODEL_READER_ROLE_DEFAULTS } from './model-reader-role';
export { planGpuCapacity, GpuPool, GpuDemand, PoolSize, CapacityPlan } from '../triton/capacity/gpu-capacity';
export { GPU_INSTANCE_TYPES, gpuInstanceType, GpuInstanceType } from '../triton/capacity/gpu-instances';
export { TritonOpsError } from '../private/errors';

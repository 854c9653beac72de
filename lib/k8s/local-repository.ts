/**
 * Copying an S3 model repository to the node's disk before Triton starts. Triton's own S3 client copies each model to
 * a temporary folder whose path nobody knows in advance; LLM engines need their weights at a fixed local path (vLLM's
 * `model`, TensorRT-LLM's engine and tokenizer folders) and read hundreds of GiB faster from local NVMe than through
 * S3. An init container syncs the prefix into an emptyDir sized for it; Triton then reads the local copy read-only.
 * On nodes whose instance store backs the kubelet's ephemeral storage (RAID0 NVMe), the emptyDir is on NVMe.
 */
import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { AWS_CLI_IMAGE } from '../private/aws-names';
import { isWhole } from '../private/checks';
import { Problems } from '../private/errors';
import { checkImage } from '../private/image-reference';
import { MODEL_MOUNT_PATH } from './model-repository';

/** Defaults of LocalRepositoryOptions, one named constant each (asserted by the tests). */
export const LOCAL_REPOSITORY_DEFAULTS = {
  image: AWS_CLI_IMAGE,
  cpuMillis: 1000,
  memoryMiB: 1024,
} as const;

export interface LocalRepositoryOptions {
  /**
   * Size of the local copy in GiB: the emptyDir's limit and the init container's ephemeral-storage request, so the pod
   * is only scheduled on a node with that much disk. At least the size of every model, weights included.
   */
  readonly sizeGiB: number;
  /** Image of the copy step, with `aws` on its path. @default LOCAL_REPOSITORY_DEFAULTS.image */
  readonly image?: string;
}

/** Checks the options; problems go to `p` under `localRepository`. */
export function checkLocalRepository(p: Problems, options: LocalRepositoryOptions, s3: boolean): void {
  p.check(s3, 'localRepository', options.sizeGiB, 'copies an S3 repository, but the server reads a PersistentVolumeClaim',
    'remove localRepository (a volume is already local to the pod) or read the models from S3');
  p.check(isWhole(options.sizeGiB, 1), 'localRepository.sizeGiB', options.sizeGiB, 'must be a whole number of GiB >= 1',
    'give at least the size of every model of the repository, weights included, e.g. 200');
  if (options.image !== undefined) checkImage(p, 'localRepository.image', options.image);
}

/**
 * Adds the copy step to `deployment`: an emptyDir at MODEL_MOUNT_PATH and an init container that syncs `source` into
 * it with the pod's own AWS credentials (IRSA or Pod Identity). Returns the volume for Triton to mount read-only.
 */
export function addLocalRepository(scope: Construct, deployment: kplus.Deployment, options: LocalRepositoryOptions,
  source: string, env: Record<string, string>, securityContext: kplus.ContainerSecurityContextProps, tmp: kplus.Volume): kplus.Volume {
  const volume = kplus.Volume.fromEmptyDir(scope, 'LocalRepository', 'local-repository', { sizeLimit: Size.gibibytes(options.sizeGiB) });
  const D = LOCAL_REPOSITORY_DEFAULTS;
  const literal: Record<string, string> = { HOME: '/tmp', ...env };
  deployment.addInitContainer({
    name: 'copy-models',
    image: options.image ?? D.image,
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    command: ['aws', 's3', 'sync', '--only-show-errors', '--no-progress', source, MODEL_MOUNT_PATH],
    envVariables: Object.fromEntries(Object.keys(literal).sort().map((k) => [k, kplus.EnvValue.fromValue(literal[k])])),
    resources: {
      cpu: { request: kplus.Cpu.millis(D.cpuMillis), limit: kplus.Cpu.millis(D.cpuMillis) },
      memory: { request: Size.mebibytes(D.memoryMiB), limit: Size.mebibytes(D.memoryMiB) },
      ephemeralStorage: { request: Size.gibibytes(options.sizeGiB) },
    },
    securityContext,
    volumeMounts: [{ path: MODEL_MOUNT_PATH, volume }, { path: '/tmp', volume: tmp }],
  });
  return volume;
}

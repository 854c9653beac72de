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
import { isWhole } from '../private/checks';
import { Problems } from '../private/errors';
import { AWS_CLI_IMAGE } from '../triton/serving/aws-cli-image';
import { checkImage } from '../private/image-reference';
import { ModelControl } from '../triton/model-config/model-control';
import { MODEL_MOUNT_PATH, RepositoryBinding } from './model-repository';
import { excludeOutbound } from './monitoring/istio-sidecar-bypass';
import { literalEnvironment, RESTRICTED_CONTAINER } from './pod-security';
import type { LocalRepositoryOptions } from '../triton/serving/local-repository-options';

const HTTPS_PORT = 443;

/** Defaults of LocalRepositoryOptions, one named constant each (asserted by the tests). */
export const LOCAL_REPOSITORY_DEFAULTS = {
  image: AWS_CLI_IMAGE,
  cpuMillis: 1000,
  memoryMiB: 1024,
} as const;

/** Checks the options against the server's repository and model control; problems go to `p` under `localRepository`. */
export function checkLocalRepository(p: Problems, options: LocalRepositoryOptions, repository: RepositoryBinding, control: ModelControl): void {
  const shared = repository.sharedFileSystem;
  if (shared !== undefined) {
    p.check(false, 'localRepository', options,
      `copies an S3 repository to the node, but the server reads ${shared}, a file system every replica already reads at network speed`,
      `remove localRepository (${shared} serves the weights to every node without a copy), or read the models from S3 to copy them`);
  } else {
    p.check(repository.uri.startsWith('s3://'), 'localRepository', options,
      'copies an S3 repository, but the server reads a PersistentVolumeClaim',
      'remove localRepository (a volume is already local to the pod) or read the models from S3');
  }
  p.check(control.mode !== 'poll', 'localRepository', options,
    "is copied once before Triton starts, so ModelControl.poll() would poll a copy that never changes",
    'use ModelControl.none() or explicit() (a new model version is a rollout), or remove localRepository');
  p.check(isWhole(options.sizeGiB, 1), 'localRepository.sizeGiB', options.sizeGiB, 'must be a whole number of GiB >= 1',
    'give at least the size of every model of the repository, weights included, e.g. 200');
  if (options.image !== undefined) checkImage(p, 'localRepository.image', options.image);
}

/**
 * Adds the copy step to `deployment`: an emptyDir at MODEL_MOUNT_PATH and an init container that syncs the
 * repository into it with the pod's own AWS credentials (IRSA or Pod Identity) and the user's environment (proxies,
 * endpoints). Returns the volume for Triton to mount read-only.
 *
 * A classic Istio sidecar redirects outbound traffic from the start, but starts after the init containers, so the
 * copy could reach nothing: its HTTPS (S3, STS) and the Pod Identity Agent bypass the sidecar (the pod's other
 * outbound ports stay in the mesh; Triton reads the copy, not S3).
 */
export function addLocalRepository(scope: Construct, deployment: kplus.Deployment, options: LocalRepositoryOptions,
  binding: RepositoryBinding, userEnv: Record<string, string>, tmp: kplus.Volume): kplus.Volume {
  const volume = kplus.Volume.fromEmptyDir(scope, 'LocalRepository', 'local-repository', { sizeLimit: Size.gibibytes(options.sizeGiB) });
  const D = LOCAL_REPOSITORY_DEFAULTS;
  excludeOutbound(deployment.podMetadata, [HTTPS_PORT], (binding.egress ?? []).flatMap((target) => target.cidrs));
  deployment.addInitContainer({
    name: 'copy-models',
    image: options.image ?? D.image,
    imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
    command: ['aws', 's3', 'sync', '--only-show-errors', '--no-progress', binding.uri, MODEL_MOUNT_PATH],
    envVariables: literalEnvironment(binding.env, userEnv),
    resources: {
      cpu: { request: kplus.Cpu.millis(D.cpuMillis), limit: kplus.Cpu.millis(D.cpuMillis) },
      memory: { request: Size.mebibytes(D.memoryMiB), limit: Size.mebibytes(D.memoryMiB) },
      ephemeralStorage: { request: Size.gibibytes(options.sizeGiB) },
    },
    securityContext: RESTRICTED_CONTAINER,
    volumeMounts: [{ path: MODEL_MOUNT_PATH, volume }, { path: '/tmp', volume: tmp }],
  });
  return volume;
}

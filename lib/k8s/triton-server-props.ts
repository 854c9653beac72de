import type { ServerSettingsProps } from '../triton/server-props';
import type { LocalRepositoryOptions } from '../triton/local-repository-options';
import { ModelRepository } from './model-repository';

export interface TritonServerProps extends ServerSettingsProps {
  /** Where the server reads its models from. */
  readonly repository: ModelRepository;
  /**
   * Copy the S3 repository to the pod's local disk before Triton starts (an init container running `aws s3 sync` into
   * an emptyDir of `sizeGiB`), and serve from the copy: LLM engines then find their weights, engines and tokenizers
   * under `/models/<model>/...`, and load from local (instance-store NVMe on nodes whose ephemeral storage is RAID0
   * NVMe) instead of through S3. S3 repositories only. The copy runs before the startup probe starts.
   * @default - Triton reads the repository itself
   */
  readonly localRepository?: LocalRepositoryOptions;
}

import type { TritonServerOptions } from '../triton/serving/server-props';
import { ModelRepository } from './model-repository';

export interface TritonServerProps extends TritonServerOptions {
  /** Where the server reads its models from. */
  readonly repository: ModelRepository;
}

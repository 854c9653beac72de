/** Where the YAML side writes what is neither a manifest nor a stack: sub-folders of the artifacts folder. */
import { join } from 'path';

/** The config.pbtxt tree (`<server>/<model>/config.pbtxt`), ready to sync into each server's repository. */
export const modelRepositoryDir = (artifacts: string): string => join(artifacts, 'model-repository');

/** The alert rules and their promtool unit tests (`<namespace>-<server>.{rules,test,long.test}.yaml`). */
export const promtoolDir = (artifacts: string): string => join(artifacts, 'promtool');

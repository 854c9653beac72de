/** The output folders of the apps (`outputDirs`, shared with `triton-ops check`) and the artifacts' sub-folders. */
import { join } from 'path';

export { OutputDirs, outputDirs } from 'triton-ops';

/** The config.pbtxt tree and the promtool files, inside the artifacts folder. */
export const modelRepositoryDir = (artifacts: string) => join(artifacts, 'model-repository');
export const promtoolDir = (artifacts: string) => join(artifacts, 'promtool');

/** The output folders of the apps (`outputDirs`, shared with `triton-ops check`): the project's own, not the package's API. */
export { OutputDirs, outputDirs } from '../lib/platform/output-dirs';

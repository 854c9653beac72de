/** The output folders of the apps (`outputDirs`, shared with `triton-ops check`). */
export { OutputDirs, outputDirs } from 'triton-ops';

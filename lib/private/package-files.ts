/** Data files shipped in the triton-ops package beside build/ (package.json `files`): proto/, schemas/, crds/, manifests/. */
import { existsSync } from 'fs';
import { dirname, join } from 'path';

/**
 * The absolute path of `relative` (e.g. `proto/model_config.proto`) in the triton-ops package: the folder above this
 * module that holds package.json and the file (lib/private -> 2 up when run from the sources; build/lib/private -> 3 up).
 */
export function packageFile(relative: string): string {
  for (let dir = __dirname, i = 0; i < 5; i++, dir = dirname(dir)) {
    if (existsSync(join(dir, relative)) && existsSync(join(dir, 'package.json'))) return join(dir, relative);
  }
  throw new Error(`${relative} not found above ${__dirname}; the triton-ops package is incomplete`);
}

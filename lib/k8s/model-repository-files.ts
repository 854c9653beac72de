import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { Construct } from 'constructs';
import { TritonOpsError } from '../private/errors';
import { TritonServer } from './triton-server';

/**
 * Writes the config.pbtxt of every model of every TritonServer under `scope` as
 * `<outdir>/model-repository/<server>/<model>/config.pbtxt`: the tree to sync into each server's repository.
 * Returns the written paths, relative to outdir, sorted.
 */
export function writeModelRepositories(scope: Construct, outdir: string): string[] {
  const written: string[] = [];
  const owners = new Map<string, string>();
  for (const server of TritonServer.all(scope)) {
    const { name } = server;
    const other = owners.get(name);
    if (other !== undefined) {
      throw new TritonOpsError(`${server.node.path}: server name '${name}' is also used by ${other}; `
        + `both would write ${join(outdir, 'model-repository', name)}; give one of them another id`);
    }
    owners.set(name, server.node.path);
    for (const [model, text] of Object.entries(server.modelConfigs)) {
      const file = join('model-repository', name, model, 'config.pbtxt');
      mkdirSync(join(outdir, 'model-repository', name, model), { recursive: true });
      writeFileSync(join(outdir, file), text);
      written.push(file);
    }
  }
  return written.sort();
}

import { mkdirSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { Construct } from 'constructs';
import { TritonOpsError } from '../private/errors';
import { modelConfigPath } from '../triton/model-config/shared-repository';
import { TritonServer } from './triton-server';

/**
 * Writes the config.pbtxt of every model of every TritonServer under `scope` (or under each of several scopes, e.g. the
 * cdk8s Apps of several clusters) as `<outdir>/model-repository/<server>/<model>/config.pbtxt`, with the model's
 * further files (`files`) beside it: the tree to sync into each server's repository. A server of a shared repository
 * (`modelConfigName`) gets `<model>/configs/<name>.pbtxt` instead: the trees of the servers that share a repository
 * are synced into the one prefix, each adding its own configuration files.
 * Returns the written paths, relative to outdir, sorted.
 */
export function writeModelRepositories(scope: Construct | readonly Construct[], outdir: string): string[] {
  const servers = [scope].flat().flatMap((s) => TritonServer.all(s));
  // Every name is checked before anything is written: a refused app leaves no partial tree behind.
  const owners = new Map<string, string>();
  const problems = servers.flatMap((server) => {
    const other = owners.get(server.name);
    owners.set(server.name, owners.get(server.name) ?? server.node.path);
    return other === undefined ? [] : [`${server.node.path}: server name '${server.name}' is also used by ${other}; `
      + `both would write ${join(outdir, 'model-repository', server.name)}; give one of them another id`];
  });
  if (problems.length > 0) throw new TritonOpsError(problems);
  const written: string[] = [];
  for (const server of servers) {
    for (const [model, text] of Object.entries(server.modelConfigs)) {
      const file = join('model-repository', server.name, modelConfigPath(model, server.modelConfigName));
      mkdirSync(dirname(join(outdir, file)), { recursive: true });
      writeFileSync(join(outdir, file), text);
      written.push(file);
      for (const [relative, content] of Object.entries(server.modelFiles[model] ?? {})) {
        const extra = join('model-repository', server.name, model, relative);
        mkdirSync(dirname(join(outdir, extra)), { recursive: true });
        writeFileSync(join(outdir, extra), content);
        written.push(extra);
      }
    }
  }
  return written.sort();
}

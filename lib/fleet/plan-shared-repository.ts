/**
 * Canary releases whose versions read one model repository (`releases.<name>.sharedRepository`), derived once from the
 * description (planFleet): which servers share which prefix, under which configuration name, and whether they agree on
 * what they share (checkSharedRepository). Pure: no cdk8s, no cdktf.
 */
import { checkSharedRepository } from '../triton/model-config/shared-repository';
import type { Problems } from '../private/errors';
import type { FleetDescription } from './fleet-description';

/** Defaults of the shared repository keys, one named constant each (asserted by the tests). */
export const SHARED_REPOSITORY_DEFAULTS = Object.freeze({
  /** `ReleaseDescription.sharedRepository`: each server reads its own prefix. */
  sharedRepository: false,
});

/** Where a server of a shared release reads its models. */
export interface SharedRepositoryPlan {
  /** The release whose prefix (`<fleet prefix>/<release>`) the server reads. */
  readonly release: string;
  /** The server's custom configuration name (`--model-config-name`): its own name. */
  readonly modelConfigName: string;
}

/**
 * Checks every release with `sharedRepository` (problems go to `p`, named `releases.<release>.sharedRepository`) and
 * returns, by server name, the release repository each of its servers reads. `fleet` has its serverDefaults applied.
 */
export function planSharedRepositories(fleet: FleetDescription, p: Problems): ReadonlyMap<string, SharedRepositoryPlan> {
  const shared = new Map<string, SharedRepositoryPlan>();
  for (const [release, r] of Object.entries(fleet.releases ?? {})) {
    if (!(r.sharedRepository ?? SHARED_REPOSITORY_DEFAULTS.sharedRepository)) continue;
    const prop = `releases.${release}.sharedRepository`;
    // Unknown servers are reported at the release's versions; a server listed twice once.
    const names = [...new Set(r.versions.map((v) => v.server))].filter((name) => name in fleet.servers);
    p.check(fleet.modelBucket !== undefined, prop, true, 'shares a repository of the fleet bucket, which is not described',
      'describe modelBucket, or remove sharedRepository');
    for (const name of names) {
      const s = fleet.servers[name];
      p.check(s.repositoryClaim === undefined, prop, true,
        `shares a prefix of the fleet bucket, but '${name}' reads the PersistentVolumeClaim '${s.repositoryClaim}'`,
        `remove repositoryClaim from '${name}', or remove sharedRepository`);
      p.check(s.weightsFrom !== 'lustre', prop, true,
        `shares a prefix of the fleet bucket, but '${name}' reads the fleet's FSx for Lustre file system (weightsFrom: 'lustre')`,
        `set weightsFrom: 'bucket' on '${name}', or remove sharedRepository`);
      p.check(s.openAi === undefined, prop, true,
        `needs each server started with --model-config-name, but '${name}' runs the OpenAI frontend, which starts Triton without it`,
        `serve '${name}' without openAi, or remove sharedRepository`);
      shared.set(name, { release, modelConfigName: name });
    }
    checkSharedRepository(p, prop, names.map((name) => {
      const s = fleet.servers[name];
      // TritonServer's default is ModelControl.none(): every model of the repository is loaded.
      return { name, models: s.models, loadsEveryModel: (s.modelControl?.mode ?? 'none') !== 'explicit' };
    }));
  }
  return shared;
}

/**
 * Container image references: every image the library deploys must name one build, so that every node runs
 * the same bits and a rollout is a visible diff (CHECKLIST I01). Shared by every construct that takes an image.
 */
import { Problems } from './errors';

/**
 * The grammar of github.com/distribution/reference (what `docker pull` and the kubelet accept):
 * `[domain[:port]/]path[:tag][@algorithm:hex]`, path components in lower case.
 */
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);

/** The parts of an image reference; undefined when `image` is no valid reference. */
export function imageParts(image: string): { readonly name: string; readonly tag?: string; readonly digest?: string } | undefined {
  const match = REFERENCE.exec(image);
  if (match === null) return undefined;
  const [, name, tag, digest] = match;
  return { name, tag, digest };
}

/** The tags that move by design: pinning to one of them pins nothing. */
const MOVING_TAGS = ['latest'];

/**
 * Records a problem unless `image` names one build: an explicit tag that is not `latest`, or a digest.
 * Registry ports (`localhost:5000/x:1.0`) are not tags; `name:tag@sha256:...` is pinned by its digest.
 *
 * @param problems where the problem goes (it knows the construct path)
 * @param prop the prop that holds the image, named in the message
 * @param image the reference the user gave
 */
export function checkImage(problems: Problems, prop: string, image: string): void {
  const parts = imageParts(image);
  if (parts === undefined) {
    problems.check(false, prop, image, 'is not a valid image reference',
      "write it as 'registry/repository:tag' or 'registry/repository@sha256:<digest>', repository in lower case");
    return;
  }
  const { name, tag, digest } = parts;
  if (digest !== undefined) return;
  problems.check(tag !== undefined, prop, image,
    'has no tag, so it means :latest and each node may pull a different build',
    `pin a version tag ('${name}:<version>') or a digest ('${name}@sha256:<digest>')`);
  problems.check(tag === undefined || !MOVING_TAGS.includes(tag), prop, image,
    `uses the moving tag '${tag}', so each node may pull a different build`,
    `pin a version tag ('${name}:<version>') or a digest ('${name}@sha256:<digest>')`);
}

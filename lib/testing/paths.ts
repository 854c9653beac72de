/**
 * Field paths as a review reads them (`spec.template.spec.containers[0].image`,
 * `metadata.annotations["cdk8s.io/metadata.addr"]`) and the globs that select them (`spec.http[*].route[*].weight`,
 * `**.image`, `metadata.labels.*`).
 */

/** One step into a value: an object key or an array index. */
export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `a.b[0]["c.d"]`: keys that are identifiers after a dot, other keys quoted in brackets, indexes in brackets. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** One step of a glob: `**` (any number of steps), a key pattern (`*` any characters), an index or `[*]` (any index). */
type GlobSegment = { readonly any: true } | { readonly key: RegExp } | { readonly index: number | '*' };

/** A parsed path glob; `match` tells whether a path is selected. */
export class PathGlob {
  /** Parses `spec.http[*].route[*].weight`, `**.image`, `metadata.labels["app.kubernetes.io/*"]`; throws on bad syntax. */
  static parse(glob: string): PathGlob {
    const segments: GlobSegment[] = [];
    let rest = glob;
    let first = true;
    while (rest.length > 0) {
      if (!first) {
        if (rest.startsWith('.')) rest = rest.slice(1);
        else if (!rest.startsWith('[')) throw new Error(`bad path glob '${glob}': expected '.' or '[' at '${rest}'`);
      }
      first = false;
      const bracket = /^\[(\*|\d+|"(?:[^"\\]|\\.)*")\]/.exec(rest);
      if (bracket !== null) {
        const inner = bracket[1];
        segments.push(inner === '*' ? { index: '*' } : inner.startsWith('"') ? { key: keyPattern(JSON.parse(inner)) } : { index: Number(inner) });
        rest = rest.slice(bracket[0].length);
        continue;
      }
      const word = /^[^.[\]]+/.exec(rest);
      if (word === null) throw new Error(`bad path glob '${glob}': expected a key at '${rest}'`);
      segments.push(word[0] === '**' ? { any: true } : { key: keyPattern(word[0]) });
      rest = rest.slice(word[0].length);
    }
    if (segments.length === 0) throw new Error('bad path glob: empty');
    return new PathGlob(glob, segments);
  }

  private constructor(readonly source: string, private readonly segments: readonly GlobSegment[]) {}

  /** Whether `path` is selected: the whole path must match (use a trailing `.**` for everything below a field). */
  match(path: readonly PathSegment[]): boolean {
    const step = (g: number, p: number): boolean => {
      if (g === this.segments.length) return p === path.length;
      const segment = this.segments[g];
      if ('any' in segment) {
        for (let skip = p; skip <= path.length; skip++) if (step(g + 1, skip)) return true;
        return false;
      }
      if (p === path.length) return false;
      const actual = path[p];
      if ('index' in segment) return typeof actual === 'number' && (segment.index === '*' || segment.index === actual) && step(g + 1, p + 1);
      // `*` as a key also steps over an index, so `containers.*.image` works too.
      if (typeof actual === 'number') return segment.key.source === '^.*$' && step(g + 1, p + 1);
      return segment.key.test(actual) && step(g + 1, p + 1);
    };
    return step(0, 0);
  }
}

/** A glob over one name: `*` any characters, everything else literal. */
export function keyPattern(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((part) => part.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')).join('.*')}$`);
}

/**
 * Stable redaction for snapshots: what changes without a reviewable cause is replaced by a placeholder, so a snapshot
 * diff shows only the changes a reviewer decides on.
 * - cdk8s' generated metadata (`cdk8s.io/*` labels and annotations, e.g. `cdk8s.io/metadata.addr`) -> `<cdk8s>`
 * - content hashes: a string that is a SHA-256 (64 hex digits, optionally `sha256:`), e.g. the device plugin's
 *   `triton-ops/config-sha256` annotation, and the values of annotations and labels named `*sha256*`, `*checksum*`,
 *   `*hash*` -> `<sha256>` / `<hash>`. An image pinned by digest (`repo@sha256:...`) is not a whole-string hash and stays.
 * - generated name suffixes: cdk8s' `-c8` + 6 hex digits and cdktf's `_` + 8 upper-case hex digits, wherever they
 *   appear (names, Terraform logical ids and references) -> `-<hash>` / `_<hash>`
 * - `paths`: any field the caller names by glob (see PathGlob) -> `<redacted>`
 * - `digests`: any field the caller names by glob -> `digest:<sha256 of its JSON>`: a bulky field that its own tests
 *   assert stays out of the snapshot's text but still changes it when it changes
 */
import { createHash } from 'crypto';
import { PathGlob, PathSegment } from './paths';
import { isRecord, objectKey, SynthObject } from './objects';

export interface RedactOptions {
  /** Further fields to replace with `<redacted>`, as path globs (`metadata.annotations.*`, `**.resourceVersion`). */
  readonly paths?: readonly string[];
  /**
   * Fields to replace with the digest of their JSON (`digest:<sha256>`), as path globs (`spec.template.spec`): bulky
   * fields asserted by their own tests, kept out of the snapshot's text while a change to them still shows.
   * @default - none
   */
  readonly digests?: readonly string[];
  /** `false` keeps everything as synthesized (default true). */
  readonly redact?: boolean;
}

const SHA256 = /^(sha256:)?[0-9a-f]{64}$/;
const CDK8S_SUFFIX = /-c8[0-9a-f]{6}(?![0-9a-zA-Z])/g;
const CDKTF_SUFFIX = /(?<=[A-Za-z0-9])_[0-9A-F]{8}(?![0-9A-Za-z])/g;
const HASH_KEY = /sha256|checksum|hash/i;

/** A generated-name suffix replaced by `<hash>` (`vision-DevicePlugin-c8b7a976` -> `vision-DevicePlugin-<hash>`). */
export const redactName = (name: string): string => name.replace(CDK8S_SUFFIX, '-<hash>').replace(CDKTF_SUFFIX, '_<hash>');

/** `value` with the redactions above, a new value (the input is not changed). */
export function redactValue(value: unknown, options: RedactOptions = {}): unknown {
  if (options.redact === false) return value;
  const globs = (options.paths ?? []).map((p) => PathGlob.parse(p));
  const digests = (options.digests ?? []).map((p) => PathGlob.parse(p));
  const walk = (v: unknown, path: PathSegment[], digested = false): unknown => {
    if (globs.some((g) => g.match(path))) return '<redacted>';
    // The digest of the field as redacted, so a generated name or hash inside it does not churn the digest either.
    if (!digested && digests.some((g) => g.match(path))) {
      return `digest:${createHash('sha256').update(JSON.stringify(walk(v, path, true))).digest('hex').slice(0, 16)}`;
    }
    const parent = path[path.length - 2];
    const key = path[path.length - 1];
    const inMetadataMap = parent === 'annotations' || parent === 'labels';
    if (typeof v === 'string') {
      if (inMetadataMap && typeof key === 'string' && key.startsWith('cdk8s.io/')) return '<cdk8s>';
      if (SHA256.test(v)) return '<sha256>';
      if (inMetadataMap && typeof key === 'string' && HASH_KEY.test(key)) return '<hash>';
      return redactName(v);
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...path, i]));
    if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, item]) => [redactName(k), walk(item, [...path, k])]));
    return v;
  };
  return walk(value, []);
}

/** An object with its body redacted and its key rebuilt from the redacted name. */
export function redactObject(object: SynthObject, options: RedactOptions = {}): SynthObject {
  if (options.redact === false) return object;
  const name = redactName(object.name);
  const namespace = object.namespace === undefined ? undefined : redactName(object.namespace);
  return { ...object, name, namespace, key: objectKey(object.kind, name, namespace, object.stack), body: redactValue(object.body, options) };
}

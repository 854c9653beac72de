/**
 * AWS naming rules (S3 buckets and prefixes, IAM roles, regions), checked at synth. No cdktf here: the Kubernetes side checks
 * buckets too. Names derived from construct paths are in construct-names.ts.
 */
import { isReference } from './checks';
import { Problems } from './errors';

/** An AWS region name, e.g. `us-west-2`, `us-gov-west-1`. */
export const AWS_REGION = /^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d$/;

/**
 * An EKS cluster name: 1-100 characters, a letter or digit first, then letters, digits, - and _ (the `ClusterName`
 * shape of the EKS API model; cited in test/fleet/fleet-schema-limits.test.ts).
 * @see https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateCluster.html
 */
export const EKS_CLUSTER_NAME = /^[0-9A-Za-z][A-Za-z0-9\-_]{0,99}$/;

/** An IAM role ARN, e.g. `arn:aws:iam::123456789012:role/triton-models`. */
/** An EC2 subnet id: `subnet-` and hex digits (the form EC2 writes, e.g. `subnet-0123456789abcdef0`). */
export const SUBNET_ID = /^subnet-[0-9a-f]+$/;
/** An EC2 security group id: `sg-` and hex digits. */
export const SECURITY_GROUP_ID = /^sg-[0-9a-f]+$/;
export const IAM_ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;

/** Checks the region of a bucket; an unresolved Terraform reference passes. */
export function checkBucketRegion(problems: Problems, prop: string, region: string): void {
  problems.check(isReference(region) || AWS_REGION.test(region), prop, region, 'is not an AWS region',
    "give the bucket's region, e.g. 'us-west-2'");
}

/** Checks an IAM role ARN; `example` is the ARN the fix suggests. */
export function checkRoleArn(problems: Problems, prop: string, arn: string, example: string): void {
  problems.check(isReference(arn) || IAM_ROLE_ARN.test(arn), prop, arn, 'is not an IAM role ARN', example);
}



const BUCKET_CHARS = /^[a-z0-9.-]*$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
/** Prefixes and suffixes S3 reserves (IDN, access point and Object Lambda aliases, directory and table buckets). */
const RESERVED_BUCKET_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
const RESERVED_BUCKET_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'];

/**
 * Checks an S3 general purpose bucket name against S3's naming rules, one problem per broken rule, each with
 * its fix. An unresolved Terraform reference is left to where it is made.
 * @see https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html
 */
export function checkBucketName(problems: Problems, prop: string, name: string): void {
  if (isReference(name)) return;
  problems.check(name.length >= 3 && name.length <= 63, prop, name,
    `must be 3-63 characters long (it has ${name.length})`,
    name.length < 3 ? "use a longer name, e.g. 'acme-models'" : 'shorten it to at most 63 characters');
  problems.check(BUCKET_CHARS.test(name), prop, name, 'may contain only lowercase letters, digits, dots and hyphens',
    `write it as '${name.toLowerCase().replace(/[^a-z0-9.-]+/g, '-')}'`);
  // Case is the rule above; this one is about dots and hyphens at the ends.
  problems.check(/^[a-zA-Z0-9]/.test(name) && /[a-zA-Z0-9]$/.test(name), prop, name,
    'must begin and end with a lowercase letter or digit', 'drop the leading or trailing dot or hyphen');
  problems.check(!name.includes('..'), prop, name, 'must not contain two adjacent dots',
    `write it as '${name.replace(/\.{2,}/g, '.')}'`);
  problems.check(!IPV4.test(name), prop, name, 'must not be formatted as an IP address',
    "choose a name such as 'acme-models'");
  for (const reserved of RESERVED_BUCKET_PREFIXES) {
    problems.check(!name.startsWith(reserved), prop, name, `must not start with '${reserved}', which S3 reserves`,
      'choose another name');
  }
  for (const reserved of RESERVED_BUCKET_SUFFIXES) {
    problems.check(!name.endsWith(reserved), prop, name, `must not end with '${reserved}', which S3 reserves`,
      'choose another name');
  }
}

/** Longest IAM role name. */
export const IAM_ROLE_NAME_MAX_LENGTH = 64;
const IAM_NAME = /^[\w+=,.@-]+$/;

/**
 * Checks an IAM role name: 1-64 letters, digits and `+=,.@_-`.
 * @see https://docs.aws.amazon.com/IAM/latest/APIReference/API_CreateRole.html
 */
export function checkIamRoleName(problems: Problems, prop: string, name: string): void {
  if (isReference(name)) return;
  problems.check(name.length >= 1 && name.length <= IAM_ROLE_NAME_MAX_LENGTH && IAM_NAME.test(name), prop, name,
    'is not a valid IAM role name', `use 1-${IAM_ROLE_NAME_MAX_LENGTH} letters, digits and + = , . @ _ -`);
}

/**
 * Checks an S3 key prefix as this library writes them: no leading or trailing `/` (`''` is the bucket root), no spaces
 * around a segment, no empty path segment (Triton collapses `//`, so keys under it would never be read), and no `*` or `?`, which IAM
 * reads as wildcards and which would widen every policy built from the prefix.
 */
export function checkS3Prefix(problems: Problems, prop: string, prefix: string): void {
  problems.check(!prefix.startsWith('/') && !prefix.endsWith('/'), prop, prefix, 'must not start or end with /',
    `write it as '${prefix.replace(/^\/+|\/+$/g, '')}'`);
  problems.check(!prefix.includes('//'), prop, prefix, 'must not contain an empty path segment (//)',
    `write it as '${prefix.replace(/\/{2,}/g, '/')}'`);
  problems.check(prefix.split('/').every((segment) => segment.trim() === segment), prop, prefix,
    'must not have spaces around a path segment (S3 keeps them, so the keys would not be the ones you meant)',
    prefix.trim() === '' ? "name a prefix without spaces, e.g. 'models'" : `write it as '${prefix.split('/').map((segment) => segment.trim()).join('/')}'`);
  problems.check(!/[*?]/.test(prefix), prop, prefix, 'must not contain * or ?, which IAM reads as wildcards',
    'name one literal prefix');
}

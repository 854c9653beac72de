/**
 * The IAM policy of the FSx for Lustre CSI driver's controller when it creates file systems linked to an S3 bucket
 * (dynamic provisioning with `s3ImportPath`): the driver's documented policy, narrowed. File systems are created only
 * with the fleet's tag and grown or deleted only when they carry it; the service-linked-role actions are limited to
 * FSx's two roles of this account; `s3:ListBucket` to the one bucket. Each statement left wider says why.
 * @see https://github.com/kubernetes-sigs/aws-fsx-csi-driver/blob/master/docs/install.md (the documented policy)
 * @see https://docs.aws.amazon.com/fsx/latest/LustreGuide/using-tags-fsx.html (tag-on-create needs fsx:TagResource)
 */
import type { PolicyDocument } from './karpenter-controller-policy';

/** Where the driver's policy applies. */
export interface FsxLustreDriverPolicyScope {
  readonly partition: string;
  readonly region: string;
  readonly accountId: string;
  /** The bucket the file systems are linked to. */
  readonly bucketName: string;
  /** The tag every file system of the fleet carries (the StorageClass's `extraTags`), e.g. `fleet: <name>`. */
  readonly tag: { readonly key: string; readonly value: string };
}

/** Service-linked role path FSx uses to reach a linked S3 bucket (`AWSServiceRoleForFSxS3Access_<file system>`). */
export const FSX_S3_SERVICE_LINKED_ROLE_PATH = 'aws-service-role/s3.data-source.lustre.fsx.amazonaws.com';
/** FSx's own service-linked role path (`AWSServiceRoleForAmazonFSx`) and service name. */
export const FSX_SERVICE_NAME = 'fsx.amazonaws.com';

/** The controller's policy, statement by statement. */
export function fsxLustreDriverPolicy(s: FsxLustreDriverPolicyScope): PolicyDocument {
  const fileSystems = `arn:${s.partition}:fsx:${s.region}:${s.accountId}:file-system/*`;
  const role = (path: string) => `arn:${s.partition}:iam::${s.accountId}:role/${path}/*`;
  return {
    Version: '2012-10-17',
    Statement: [
      {
        // Creating with tags is also authorized as fsx:TagResource; both only with the fleet's tag in the request.
        Sid: 'CreateFleetFileSystems', Effect: 'Allow', Action: ['fsx:CreateFileSystem', 'fsx:TagResource'], Resource: fileSystems,
        Condition: { StringEquals: { [`aws:RequestTag/${s.tag.key}`]: s.tag.value } },
      },
      {
        // Growing a claim (ControllerExpandVolume) and deleting its file system, only for the fleet's file systems.
        Sid: 'GrowAndDeleteFleetFileSystems', Effect: 'Allow', Action: ['fsx:UpdateFileSystem', 'fsx:DeleteFileSystem'], Resource: fileSystems,
        Condition: { StringEquals: { [`aws:ResourceTag/${s.tag.key}`]: s.tag.value } },
      },
      {
        // Wide: the driver also lists every file system of the region (DescribeFileSystems without ids) to find the one
        // of a volume, a call no resource ARN can scope. Read-only metadata.
        Sid: 'DescribeFileSystems', Effect: 'Allow', Action: 'fsx:DescribeFileSystems', Resource: '*',
      },
      {
        // For a file system linked to S3, FSx creates a service-linked role for S3 and writes its access policy as the caller.
        Sid: 'FsxS3ServiceLinkedRole', Effect: 'Allow', Action: ['iam:CreateServiceLinkedRole', 'iam:AttachRolePolicy', 'iam:PutRolePolicy'],
        Resource: role(FSX_S3_SERVICE_LINKED_ROLE_PATH),
      },
      {
        Sid: 'FsxServiceLinkedRole', Effect: 'Allow', Action: 'iam:CreateServiceLinkedRole', Resource: role(`aws-service-role/${FSX_SERVICE_NAME}`),
        Condition: { StringLike: { 'iam:AWSServiceName': FSX_SERVICE_NAME } },
      },
      {
        // In the driver's documented policy for a linked bucket (FSx reads the objects through its service-linked role): this bucket only.
        // No s3:prefix condition: the driver makes no S3 call; FSx checks this on the caller while creating the linked file
        // system, with a request no documentation describes, so a prefix condition could refuse every CreateVolume.
        Sid: 'ListLinkedBucket', Effect: 'Allow', Action: 's3:ListBucket', Resource: `arn:${s.partition}:s3:::${s.bucketName}`,
      },
    ],
  };
}

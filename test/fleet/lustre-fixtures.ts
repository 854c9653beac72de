import { FleetDescription } from '../../lib/fleet';
import { SHOP, withServer } from './fixtures';

/** The bucket's FSx for Lustre file system, as a description writes it. */
export const LUSTRE = { storageCapacityGiB: 2400, subnetId: 'subnet-0a1b2c3d', securityGroupIds: ['sg-0a1b2c3d'] };

/** SHOP with the bucket's Lustre file system, read by the GPU server. */
export const ON_LUSTRE: FleetDescription = {
  ...withServer('gpu', { weightsFrom: 'lustre' }), modelBucket: { ...SHOP.modelBucket!, lustre: LUSTRE },
};

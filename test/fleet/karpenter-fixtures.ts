import { FleetDescription } from '../../lib/fleet';
import { SHOP, withPool } from './fixtures';

/** SHOP with its GPU pool provisioned by Karpenter: the Karpenter variant of the test fleet. */
export const KARPENTER_SHOP: FleetDescription = withPool({ provisioner: 'karpenter' }, SHOP);

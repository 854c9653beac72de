// Loaded first by 'triton-ops/aws' (lib/entries/aws.ts, through lib/aws/index.ts): fails with the packages to install when cdktf or the AWS
// provider is missing, before any module that imports them runs.
import { requireOptionalPeers } from '../private/optional-peers';

requireOptionalPeers('triton-ops/aws', ['cdktf', '@cdktf/provider-aws']);

// Loaded first by 'triton-ops/bridge' (lib/entries/bridge.ts, through lib/bridge/index.ts): fails with the packages to install when cdktf or a
// provider is missing, before any module that imports them runs. The serving and add-ons stacks use all three.
import { requireOptionalPeers } from '../private/optional-peers';

requireOptionalPeers('triton-ops/bridge', ['cdktf', '@cdktf/provider-aws', '@cdktf/provider-kubernetes', '@cdktf/provider-helm']);

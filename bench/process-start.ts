/**
 * Imported first by a timed entry, before anything heavy: the moment Node has started and begins loading the
 * entry's modules. What the entry's other imports cost is measured from here.
 */
import { performance } from 'perf_hooks';

export const MODULES_FROM_MS = performance.now();

/** How many replicas a server runs: a fixed count (min = max) or the range its autoscaler moves in. */
export interface ReplicaRange {
  readonly min: number;
  readonly max: number;
}

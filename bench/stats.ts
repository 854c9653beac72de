/** Small numeric helpers for the report. Medians, because one GC pause or a noisy neighbour skews a mean. */

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Fixed decimals, so the Markdown columns line up when pasted into a review. */
export const fmt = (value: number, digits = 0) => value.toFixed(digits);

export const markdownRow = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;

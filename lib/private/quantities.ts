/**
 * Numbers counted in thousandths, written for the two readers that consume autoscaling targets. Kubernetes
 * metric APIs carry values as milli-quantities (the HPA compares `MilliValue()`, prometheus-adapter and KEDA
 * build their values with `NewMilliQuantity`), so a target is kept as a whole number of thousandths from the
 * start: anything finer would be rounded away silently by the cluster.
 */

/** Whether `value` is a whole number of thousandths (0.05 -> true, 0.0005 -> false), tolerant of float noise. */
export function isWholeMilli(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const milli = value * 1000;
  return Number.isSafeInteger(Math.round(milli)) && Math.abs(milli - Math.round(milli)) < 1e-6;
}

/** `value` in thousandths, rounded (call isWholeMilli first). */
export const toMilli = (value: number): number => Math.round(value * 1000);

/** Thousandths as a Kubernetes quantity: 50 -> `50m`, 2000 -> `2`, 1500 -> `1500m` (the API's own canonical form). */
export function milliQuantity(milli: number): string {
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}

/**
 * Thousandths as a plain decimal: 50 -> `0.05`, 2000 -> `2`, 1500 -> `1.5`. For KEDA's trigger metadata, which
 * reads numbers with Go's strconv.ParseFloat and would refuse a quantity suffix such as `50m`. Built from the
 * digits, not by dividing, so no float noise (`0.07000000000000001`) reaches the output.
 */
export function milliDecimal(milli: number): string {
  const sign = milli < 0 ? '-' : '';
  const abs = Math.abs(milli);
  const whole = Math.floor(abs / 1000);
  const fraction = String(abs % 1000).padStart(3, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

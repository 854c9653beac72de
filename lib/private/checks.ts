/**
 * The checks every construct repeats, one definition each: whole numbers in a range, and values Terraform fills in
 * later. Kubernetes name checks live in kubernetes-names.ts.
 */

/** `n` is a whole number from `min` to `max`. */
export function isWhole(n: number, min: number, max: number = Number.MAX_SAFE_INTEGER): boolean {
  return Number.isInteger(n) && n >= min && n <= max;
}

/**
 * A value Terraform fills in at apply time: a cdktf token (its string form is `${TfToken[...]}`) or a `${...}`
 * reference written by hand. Such a value is checked where it is made, never here; it holds no cdktf import, so the
 * Kubernetes side can use it too.
 */
export function isReference(value: string): boolean {
  return value.includes('${');
}

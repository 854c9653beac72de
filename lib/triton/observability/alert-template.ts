/**
 * Expands the few Go-template actions the Triton alert annotations use, the way Prometheus does, so that promtool
 * tests can state the exact annotation expected for a given alert: promtool then proves the two agree.
 * Any other action is refused, so a new annotation cannot silently get a wrong expectation.
 * @see https://prometheus.io/docs/prometheus/latest/configuration/template_reference/
 */

const LABEL = '\\$labels\\.([A-Za-z_][A-Za-z0-9_]*)';
const IF_ELSE = new RegExp(`\\{\\{ if ${LABEL} \\}\\}(.*?)\\{\\{ else \\}\\}(.*?)\\{\\{ end \\}\\}`, 'gs');
const ACTION = /\{\{ (.*?) \}\}/g;

/** `template` as Prometheus renders it for an alert with `labels` and value `value`. */
export function expandAnnotation(template: string, labels: Readonly<Record<string, string>>, value: number): string {
  // A label missing from the alert is the empty string, which `if` treats as false (Go's zero value).
  const label = (name: string) => labels[name] ?? '';
  return template
    .replace(IF_ELSE, (_, name: string, then: string, otherwise: string) => (label(name) !== '' ? then : otherwise))
    .replace(ACTION, (_, action: string) => {
      const ref = new RegExp(`^${LABEL}$`).exec(action);
      if (ref) return label(ref[1]);
      if (action === '$value | humanizePercentage') return `${formatG4(value * 100)}%`;
      if (action === '$value | humanizeDuration') return humanizeDuration(value);
      if (action === 'printf "%.0f" $value') return roundHalfEven(value).toFixed(0);
      throw new Error(`no expansion for the template action {{ ${action} }}; add it to alert-template.ts`);
    });
}

/**
 * Go's `%.4g`: 4 significant digits, trailing zeros dropped, exponent form below 1e-4 and from 1e4 on.
 * An exact decimal tie (12345) rounds up here and to even in Go; the promtool scenarios use round values, never ties.
 */
export function formatG4(x: number): string {
  if (x === 0 || !Number.isFinite(x)) return x === 0 ? '0' : String(x).replace('Infinity', 'Inf');
  const [mantissa, exponent] = x.toExponential(3).split('e');
  const e = Number(exponent);
  if (e < -4 || e >= 4) {
    const m = mantissa.replace(/\.?0+$/, '');
    return `${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  return String(Number(x.toPrecision(4)));
}

/** Prometheus' humanizeDuration: `200ms`, `2s`, `3m 20s`, `1h 0m 5s`, `2d 1h 0m 0s`. */
export function humanizeDuration(v: number): string {
  if (v === 0) return '0s';
  const sign = v < 0 ? '-' : '';
  const abs = Math.abs(v);
  if (abs >= 1) {
    const whole = Math.trunc(abs);
    const [s, m, h, d] = [whole % 60, Math.trunc(whole / 60) % 60, Math.trunc(whole / 3600) % 24, Math.trunc(whole / 86400)];
    if (d !== 0) return `${sign}${d}d ${h}h ${m}m ${s}s`;
    if (h !== 0) return `${sign}${h}h ${m}m ${s}s`;
    if (m !== 0) return `${sign}${m}m ${s}s`;
    return `${sign}${formatG4(abs)}s`;
  }
  let scaled = v;
  let prefix = '';
  for (const p of ['m', 'u', 'n', 'p', 'f', 'a', 'z', 'y']) {
    if (Math.abs(scaled) >= 1) break;
    prefix = p;
    scaled *= 1000;
  }
  return `${formatG4(scaled)}${prefix}s`;
}

/** Go's `%.0f` rounds an exact .5 to even; JavaScript's toFixed rounds it up. */
function roundHalfEven(v: number): number {
  const floor = Math.floor(v);
  const diff = v - floor;
  if (diff !== 0.5) return Math.round(v);
  return floor % 2 === 0 ? floor : floor + 1;
}

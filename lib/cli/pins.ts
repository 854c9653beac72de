/**
 * `triton-ops pins`: every pinned upstream release the synthesized output depends on (the EKS Kubernetes version, the
 * add-ons' Helm charts and vendored CRDs, the EKS add-ons, the default images), each with its version, the Kubernetes versions (or other
 * range) it supports and where that was read: the list to start from when the pins are refreshed (docs/fleets.md,
 * "Refreshing the pins"). Reads no files and loads no cdktf.
 */
import { pins } from '../fleet/pins';
import { eksVersionProblem } from '../triton/releases/eks-versions';
import { END_OF_LIFE_WARNING_DAYS, endOfLifeWarning, endOfLifeWords, isCalendarDay, lifecycleStatus, utcDay } from '../triton/releases/lifecycle';
import type { Pin } from '../triton/releases/pin';
import { ArgsError, argTokens } from './args';

export const PINS_USAGE = `usage: triton-ops pins [--format text|json] [--kubernetes-version 1.<minor>] [--check [--date YYYY-MM-DD]]
  Lists every pin with its version, its support range, its release and end-of-life dates and their sources.
  --format text|json          text (default): one block per pin; json: an array of {component, kind, version, supports, source, lifecycle, ...}
  --kubernetes-version V      the cluster version the EKS add-ons are resolved for (default: the library's default)
  --check                     instead, lists the pins past their end of life (exit 1 when there is one) and those within
                              ${END_OF_LIFE_WARNING_DAYS} days of it (warnings; exit 0), each with its date and the release to move to
  --date YYYY-MM-DD           the day --check judges (default: today, UTC)`;

interface PinsOptions {
  readonly format: 'text' | 'json';
  readonly kubernetesVersion?: string;
  readonly check: boolean;
  /** The day --check judges. */
  readonly date?: string;
}

/** The options of `argv`, or the usage error's message. */
function parseArgs(argv: readonly string[]): PinsOptions | string {
  let format: PinsOptions['format'] = 'text';
  let kubernetesVersion: string | undefined;
  let check = false;
  let date: string | undefined;
  const spec = { 'format': { type: 'string' }, 'kubernetes-version': { type: 'string' }, 'check': { type: 'boolean' }, 'date': { type: 'string' } } as const;
  try {
    for (const t of argTokens(argv, spec, (o) => `${o} needs a value`)) {
      if (t.kind === 'positional') return `unexpected argument '${t.value}'`;
      if (t.name === 'format') {
        if (t.value !== 'text' && t.value !== 'json') return `--format must be text or json, not '${t.value}'`;
        format = t.value;
      } else if (t.name === 'check') {
        check = true;
      } else if (t.name === 'date') {
        if (!isCalendarDay(t.value ?? '')) return `--date must be a day written YYYY-MM-DD, e.g. '2026-12-05', not '${t.value}'`;
        date = t.value;
      } else {
        kubernetesVersion = t.value;
      }
    }
  } catch (error) {
    if (error instanceof ArgsError) return error.message;
    throw error;
  }
  if (date !== undefined && !check) return '--date is for --check: add --check, or leave out --date';
  const refused = kubernetesVersion === undefined ? undefined : eksVersionProblem('pins', '--kubernetes-version', kubernetesVersion);
  return refused ?? { format, kubernetesVersion, check, date };
}

/** One pin as a block of lines: `kind component version`, then its range, its source and its lifecycle. */
function pinLines(pin: Pin): string[] {
  const l = pin.lifecycle;
  return [
    `${pin.kind} ${pin.component} ${pin.version}`, ...(pin.supports === undefined ? [] : [`  supports: ${pin.supports}`]), `  source: ${pin.source}`,
    `  released: ${l.released} (${l.cycle}); end of life: ${endOfLifeWords(l)}; move to: ${l.moveTo ?? 'no newer release read'}`,
    `  lifecycle source: ${l.source}`,
  ];
}

/**
 * What `--check` prints for `list` on `day` and its exit code: each pin past its end of life (`past end of life: ...`,
 * exit 1) and each within END_OF_LIFE_WARNING_DAYS of it (`warning: ...`), each with its date and the release to move to.
 */
export function checkPins(list: readonly Pin[], day: string): { readonly lines: readonly string[]; readonly code: number } {
  const past: string[] = [];
  const near: string[] = [];
  for (const pin of list) {
    const warning = endOfLifeWarning(`${pin.kind} ${pin.component} ${pin.version}`, pin.lifecycle, day);
    if (warning === undefined) continue;
    (lifecycleStatus(pin.lifecycle, day) === 'past-end-of-life' ? past : near).push(warning);
  }
  const undated = list.filter((p) => lifecycleStatus(p.lifecycle, day) === 'undated').length;
  return {
    lines: [
      ...past.map((w) => `past end of life: ${w}`), ...near.map((w) => `warning: ${w}`),
      `${list.length} pins on ${day}: ${past.length} past end of life, ${near.length} within ${END_OF_LIFE_WARNING_DAYS} days of it, `
        + `${undated} without a stated end of life`,
    ],
    code: past.length > 0 ? 1 : 0,
  };
}

export async function run(argv: readonly string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${PINS_USAGE}\n`);
    return 0;
  }
  const options = parseArgs(argv);
  if (typeof options === 'string') {
    process.stderr.write(`triton-ops pins: ${options}\n${PINS_USAGE}\n`);
    return 2;
  }
  const list = pins(options.kubernetesVersion);
  if (options.check) {
    const { lines, code } = checkPins(list, options.date ?? utcDay(new Date()));
    process.stdout.write(`${lines.join('\n')}\n`);
    return code;
  }
  process.stdout.write(options.format === 'json' ? `${JSON.stringify(list, undefined, 2)}\n` : `${list.flatMap(pinLines).join('\n')}\n`);
  return 0;
}

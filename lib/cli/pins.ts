/**
 * `triton-ops pins`: every pinned upstream release the synthesized output depends on (the EKS Kubernetes version, the
 * add-ons' Helm charts and vendored CRDs, the EKS add-ons, the default images), each with its version, the Kubernetes versions (or other
 * range) it supports and where that was read: the list to start from when the pins are refreshed (docs/fleets.md,
 * "Refreshing the pins"). Reads no files and loads no cdktf.
 */
import { pins } from '../platform/pins';
import { eksVersionProblem } from '../triton/eks-versions';
import type { Pin } from '../triton/pin';
import { ArgsError, argTokens } from './args';

export const PINS_USAGE = `usage: triton-ops pins [--format text|json] [--kubernetes-version 1.<minor>]
  Lists every pin with its version, its support range and its source.
  --format text|json          text (default): one block per pin; json: an array of {component, kind, version, supports, source, ...}
  --kubernetes-version V      the cluster version the EKS add-ons are resolved for (default: the library's default)`;

interface PinsOptions {
  readonly format: 'text' | 'json';
  readonly kubernetesVersion?: string;
}

/** The options of `argv`, or the usage error's message. */
function parseArgs(argv: readonly string[]): PinsOptions | string {
  let format: PinsOptions['format'] = 'text';
  let kubernetesVersion: string | undefined;
  try {
    for (const t of argTokens(argv, { format: { type: 'string' }, 'kubernetes-version': { type: 'string' } }, (o) => `${o} needs a value`)) {
      if (t.kind === 'positional') return `unexpected argument '${t.value}'`;
      if (t.name === 'format') {
        if (t.value !== 'text' && t.value !== 'json') return `--format must be text or json, not '${t.value}'`;
        format = t.value;
      } else {
        kubernetesVersion = t.value;
      }
    }
  } catch (error) {
    if (error instanceof ArgsError) return error.message;
    throw error;
  }
  const refused = kubernetesVersion === undefined ? undefined : eksVersionProblem('pins', '--kubernetes-version', kubernetesVersion);
  return refused ?? { format, kubernetesVersion };
}

/** One pin as a block of lines: `kind component version`, then its range and its source. */
function pinLines(pin: Pin): string[] {
  return [`${pin.kind} ${pin.component} ${pin.version}`, ...(pin.supports === undefined ? [] : [`  supports: ${pin.supports}`]), `  source: ${pin.source}`];
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
  process.stdout.write(options.format === 'json' ? `${JSON.stringify(list, undefined, 2)}\n` : `${list.flatMap(pinLines).join('\n')}\n`);
  return 0;
}

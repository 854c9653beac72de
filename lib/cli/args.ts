/**
 * The command line of `triton-ops check` and `triton-ops diff`, read by `node:util` parseArgs (strict): an unknown
 * option, a value missing or looking like an option (`--output --format json`), or a value given to a flag, is a usage
 * error worded like the commands' own.
 */
import { parseArgs } from 'node:util';

export type ArgToken =
  | { readonly kind: 'option'; readonly name: string; readonly rawName: string; readonly value: string | undefined }
  | { readonly kind: 'positional'; readonly value: string; readonly afterTerminator: boolean };

export type ArgOptions = Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string }>;

/** A command-line mistake: its message is meant for the usage error. */
export class ArgsError extends Error {}

/**
 * The options and positionals of `argv` in order. Throws ArgsError: `unknown option '-x'`, `OPTION does not take a
 * value`, or `missing(OPTION)` when a value is missing (OPTION as written, e.g. `-o` or `--output`).
 */
export function argTokens(argv: readonly string[], options: ArgOptions, missing: (option: string) => string): ArgToken[] {
  let tokens;
  try {
    tokens = parseArgs({
      args: [...argv], strict: true, allowPositionals: true, tokens: true,
      options: Object.fromEntries(Object.entries(options).map(([k, v]) => [k, { ...v, multiple: true }])),
    }).tokens;
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const option = /'(-{1,2}[^' ,<=]+)/.exec(message)?.[1] ?? '?';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new ArgsError(`unknown option '${option}'`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new ArgsError(/does not take an argument/.test(message) ? `${option} does not take a value` : missing(option));
    }
    throw error;
  }
  const out: ArgToken[] = [];
  let terminated = false;
  for (const t of tokens) {
    if (t.kind === 'option-terminator') terminated = true;
    else if (t.kind === 'positional') out.push({ kind: 'positional', value: t.value, afterTerminator: terminated });
    else out.push({ kind: 'option', name: t.name, rawName: t.rawName, value: t.value });
  }
  return out;
}

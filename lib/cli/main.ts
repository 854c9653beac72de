#!/usr/bin/env node
/**
 * `triton-ops <command>`: the command shipped with the package for CI pipelines.
 * - `triton-ops check [paths]`: checks what a triton-ops app synthesized (lib/cli/check.ts).
 * - `triton-ops diff OLD NEW`: the object-level difference between two synth outputs (lib/cli/diff.ts).
 * - `triton-ops pins`: every pinned upstream release with its support range and source (lib/cli/pins.ts).
 * - `triton-ops verify [paths]`: the output run on a real control plane of local processes (lib/cli/verify.ts).
 * Each command returns its exit code: 0 clean, 1 problems found, 2 a usage error.
 */
import { run as check } from './check';
import { run as diff } from './diff';
import { run as pins } from './pins';
import { run as verify } from './verify';

const COMMANDS: Readonly<Record<string, (argv: readonly string[]) => Promise<number>>> = { check, diff, pins, verify };

const USAGE = `usage: triton-ops <command> [options]
  check [paths...]   check synthesized manifests, Terraform JSON, config.pbtxt trees and promtool files
  diff OLD NEW       the object-level difference between two synth outputs
  pins               every pinned upstream release (charts, EKS, images) with its support range and source
  verify [paths...]  apply, schedule, drain, roll and autoscale the output on a control plane of local binaries
Run 'triton-ops <command> --help' for its options.`;

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const run = command === undefined ? undefined : COMMANDS[command];
  if (run === undefined) {
    process.stderr.write(`${command === undefined || command === '--help' ? '' : `triton-ops: unknown command '${command}'\n`}${USAGE}\n`);
    return command === '--help' ? 0 : 2;
  }
  return run(rest);
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (error: unknown) => {
    process.stderr.write(`triton-ops: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}

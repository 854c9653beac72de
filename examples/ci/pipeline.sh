#!/usr/bin/env bash
# The triton-ops pipeline as a plain script (examples/ci/github-actions.yml runs the same steps on GitHub Actions):
#   1. npm ci, npm run synth                        install, synthesize this branch into dist/, artifacts/, cdktf.out/
#   2. npx triton-ops check --require protoc,promtool   every synthesized object, config.pbtxt and alert rule file
#   3. the snapshot tests (jest, triton-ops/testing) whose snapshot diffs read as review lines
#   4. npx triton-ops diff BASE NEW                  this branch's output against the base branch's, synthesized in a
#                                                    git worktree; with ONLY set, a change outside it fails the run
#
# usage: examples/ci/pipeline.sh [BASE_REF]        BASE_REF defaults to $BASE_REF, else origin/main, else main
# environment:
#   ONLY               --only rules, one per line, e.g. for a canary promotion (a stage change):
#                        ONLY='VirtualService:spec.http[*].route[*].weight'
#   SNAPSHOT_TESTS     the jest paths of the snapshot tests (default: test/testing test/examples)
#   SKIP_NPM_CI=1      reuse the installed node_modules (a checkout shared with running work, an offline machine)
#   DIFF_FORMAT=json   the diff as JSON (default human)
# Exit status: that of the first failing step (1 for problems, a change outside ONLY; 2 for a usage error).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

base=${1:-${BASE_REF:-}}
if [ -z "$base" ]; then
  if git rev-parse -q --verify origin/main >/dev/null; then base=origin/main; else base=main; fi
fi
git rev-parse -q --verify "$base^{commit}" >/dev/null || { echo "pipeline: no such base ref '$base'" >&2; exit 2; }

step() { printf '\n== %s\n' "$*" >&2; }

step "install and synthesize this branch ($(git rev-parse --short HEAD))"
if [ "${SKIP_NPM_CI:-}" != 1 ]; then npm ci; fi
npm run synth

step "check what was synthesized"
npx triton-ops check --require protoc,promtool dist cdktf.out artifacts

step "snapshot tests"
# shellcheck disable=SC2086
npx jest ${SNAPSHOT_TESTS:-test/testing test/examples}

step "synthesize the base ($base) in a worktree"
work=$(mktemp -d)
cleanup() { git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
git worktree add --quiet --detach "$work/base" "$base"
(
  cd "$work/base"
  # The same lock file: the installed packages serve both checkouts; otherwise install the base's own.
  if [ "${SKIP_NPM_CI:-}" = 1 ] || cmp -s package-lock.json "$OLDPWD/package-lock.json"; then
    ln -s "$OLDPWD/node_modules" node_modules
  else
    npm ci
  fi
  npm run synth
)

step "diff $base -> this branch"
only=()
while IFS= read -r rule; do [ -n "$rule" ] && only+=(--only "$rule"); done <<<"${ONLY:-}"
status=0
for out in dist cdktf.out; do
  npx triton-ops diff "$work/base/$out" "$out" --format "${DIFF_FORMAT:-human}" "${only[@]}" || status=$?
done
exit "$status"

#!/usr/bin/env bash
# `triton-ops verify` over every cluster of the examples, with its infra stack's node pools, at each Kubernetes release
# of tools/kubernetes (the default cluster version and the lowest supported one), their autoscalers through KEDA (the
# default engine), and over the fleet of .ci/autoscale-fleet.js (prometheus-adapter, scale to zero) at the lowest; the
# clusters of a release run
# side by side (each is mostly waiting on its controllers). Then the quoted report of docs/ci.md
# (test/docs/verify-report.txt) must be what the run printed, and a broken copy must fail naming each break
# (.ci/verify-broken.js). The components come from tools/obtain.js, built once per machine from the Go module proxy.
# Usage: bash .ci/verify.sh   (after synth and the build)
set -euo pipefail
cd "$(dirname "$0")/.."
reports=${TRITON_OPS_VERIFY_REPORTS:-$(mktemp -d "${TMPDIR:-/tmp}/triton-ops-verify-reports.XXXXXX")}
mkdir -p "$reports"
releases=$(node -e 'console.log(require("./tools/obtain").KUBERNETES_RELEASES.join(" "))')
default=${releases##* }
lowest=${releases%% *}
node .ci/autoscale-fleet.js "$reports/autoscale"
declare -A output=([ml-serving]=dist/ml-serving [llm-serving]=dist/llm-serving [autoscale-serving]="$reports/autoscale/dist/autoscale-serving")
declare -A infra=([ml-serving]=cdktf.out/stacks/infra [llm-serving]=cdktf.out/stacks/llm-infra [autoscale-serving]="$reports/autoscale/cdktf.out/stacks/autoscale-infra")
failed=0
for release in $releases; do
  bin=$(node tools/obtain.js "verify-$release")
  clusters=(ml-serving llm-serving)
  [ "$release" = "$lowest" ] && clusters+=(autoscale-serving)
  pids=()
  for cluster in "${clusters[@]}"; do
    TRITON_OPS_VERIFY_BIN="$bin" node build/lib/cli/main.js verify "${output[$cluster]}" "${infra[$cluster]}" \
      --output "$reports/$cluster-$release.json" > "$reports/$cluster-$release.log" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  for cluster in "${clusters[@]}"; do
    echo "== triton-ops verify ${output[$cluster]} at Kubernetes $release"
    cat "$reports/$cluster-$release.log"
  done
done
[ "$failed" = 0 ] || { echo "triton-ops verify failed on the examples (reports in $reports)" >&2; exit 1; }

node .ci/verify-quote.js "$reports/ml-serving-$default.log" > "$reports/verify-report.txt"
if ! diff -u test/docs/verify-report.txt "$reports/verify-report.txt"; then
  echo "docs/ci.md quotes another verify report: copy $reports/verify-report.txt to test/docs/verify-report.txt and run UPDATE_README=1 npx jest test/docs" >&2
  exit 1
fi
TRITON_OPS_VERIFY_BIN=$(node tools/obtain.js verify) node .ci/verify-broken.js

#!/usr/bin/env bash
# checkov, the IaC scanner platform teams run, over the synthesized output: dist/ with its kubernetes framework and
# cdktf.out with terraform_json (every stacks/*/cdk.tf.json). No check may fail but those checkov-suppressions.yaml names,
# for the resources it names, each with the reason it does not apply and the check's source; an entry that no longer
# matches a failed check fails the run as well (.ci/checkov-verdict.js). checkov is pinned in tools/obtain.js and
# installed from PyPI once per machine (about 30 s cold); the two scans take about 10 s.
# Usage: bash .ci/check-checkov.sh   (after npm run synth)
set -euo pipefail
cd "$(dirname "$0")/.."

for d in dist cdktf.out/stacks; do
  [ -d "$d" ] || { echo "check-checkov: no $d/; run 'npm run synth' first" >&2; exit 1; }
done
tools_path=$(node tools/obtain.js checkov)
export PATH="${tools_path:+$tools_path:}$PATH"

work=$(mktemp -d "${TMPDIR:-/tmp}/triton-ops-checkov.XXXXXX")
trap 'rm -rf "$work"' EXIT
# --skip-download: no call to the Prisma Cloud API (guideline links and severities; nothing the checks need).
# --soft-fail: checkov's exit code then says only whether it ran; the verdict decides on the findings.
checkov --directory dist --framework kubernetes --skip-download --soft-fail --output json > "$work/kubernetes.json"
checkov --directory cdktf.out --framework terraform_json --skip-download --soft-fail --output json > "$work/terraform_json.json"
node .ci/checkov-verdict.js checkov-suppressions.yaml "dist=$work/kubernetes.json" "cdktf.out=$work/terraform_json.json"

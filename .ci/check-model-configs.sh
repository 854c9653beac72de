#!/usr/bin/env bash
# CHECKLIST T04: every rendered config.pbtxt must parse as inference.ModelConfig. protoc's text-format parser is
# the one Triton uses when it loads a model, so a typo or wrong field fails CI instead of a rollout.
# Usage: .ci/check-model-configs.sh [dir]   (default artifacts/model-repository; env PROTO_DIR overrides the proto folder)
set -uo pipefail

dir="${1:-artifacts/model-repository}"
# model_config.proto lives in shared/triton beside the checkout; resolve from this script so any cwd works.
PROTO_DIR="${PROTO_DIR:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null)/../shared/triton}"

command -v protoc >/dev/null || { echo "protoc not found: apt-get install -y protobuf-compiler" >&2; exit 1; }
[ -f "$PROTO_DIR/model_config.proto" ] || { echo "no model_config.proto in '$PROTO_DIR'; set PROTO_DIR" >&2; exit 1; }

passed=0 failed=0
# NUL-separated and sorted: model names may contain spaces, and output order must be stable.
while IFS= read -r -d '' f; do
  # Only stderr is kept; the encoded binary is discarded. protoc names stdin "input" in its line:col messages.
  if err=$(protoc --encode=inference.ModelConfig -I "$PROTO_DIR" model_config.proto < "$f" 2>&1 >/dev/null); then
    echo "$f: ok"; passed=$((passed + 1))
  else
    echo "$f: FAILED"; sed 's/^/  /' <<<"$err"; failed=$((failed + 1))
  fi
done < <(find "$dir" -type f -name config.pbtxt -print0 2>/dev/null | sort -z)

echo "model configs: $passed passed, $failed failed"
# Zero files means the model repository was not rendered: that is a failure, not a pass.
[ $((passed + failed)) -gt 0 ] || { echo "no config.pbtxt found under '$dir'; did synth run?" >&2; exit 1; }
[ "$failed" -eq 0 ]

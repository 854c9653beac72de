#!/usr/bin/env bash
# `triton-ops check` must fail on broken output, naming each problem: copies the synthesized output (dist, artifacts,
# cdktf.out), breaks one object's schema, one config.pbtxt, one promtool test case, one route host and one HTTPRoute's
# InferencePool, adds an unknown field to a core object and to a custom resource, runs the shipped command on the copy
# and asserts a non-zero exit and that each broken file, object and reason is reported.
# Usage: bash .ci/check-broken-output.sh   (after synth and the build; needs protoc and promtool)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

work=$(mktemp -d "${TMPDIR:-/tmp}/triton-ops-broken.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r dist artifacts cdktf.out "$work/"
cd "$work"

# 1. A schema error: the first Deployment of dist/ml-serving/vision.yaml gets a string where an integer belongs.
# 2. A dangling route host: the first VirtualService destination of dist/ml-serving/search.yaml names a Service that does not exist.
# 2b. A dangling InferencePool: the first HTTPRoute of dist/llm-serving/llm.yaml that routes to a pool names one that does not exist.
# 3. Unknown fields, which kubectl's strict field validation refuses: a top-level `bogusField` in the first Service of
#    dist/ml-serving/search.yaml (a core object), and `bogusField` in the first rule of the first PrometheusRule of dist/ml-serving/vision.yaml
#    (a custom resource).
node -e '
const fs = require("fs");
const YAML = require(process.argv[1] + "/node_modules/yaml");
const edit = (file, fn) => {
  const docs = YAML.parseAllDocuments(fs.readFileSync(file, "utf8"), { version: "1.1" });
  if (!docs.some(fn)) throw new Error("nothing to break in " + file);
  fs.writeFileSync(file, docs.map((d) => d.toString()).join(""));
};
edit("dist/ml-serving/vision.yaml", (d) => d.get("kind") === "Deployment" && (d.setIn(["spec", "minReadySeconds"], "soon"), true));
edit("dist/ml-serving/search.yaml", (d) => {
  if (d.get("kind") !== "VirtualService") return false;
  d.setIn(["spec", "http", 0, "route", 0, "destination", "host"], "missing.search.svc.cluster.local");
  return true;
});
edit("dist/llm-serving/llm.yaml", (d) => {
  if (d.get("kind") !== "HTTPRoute" || d.getIn(["spec", "rules", 0, "backendRefs", 0, "kind"]) !== "InferencePool") return false;
  d.setIn(["spec", "rules", 0, "backendRefs", 0, "name"], "missing-pool");
  return true;
});
edit("dist/ml-serving/search.yaml", (d) => d.get("kind") === "Service" && (d.set("bogusField", 1), true));
edit("dist/ml-serving/vision.yaml", (d) => d.get("kind") === "PrometheusRule" && (d.setIn(["spec", "groups", 0, "rules", 0, "bogusField"], 1), true));' "$root"
# 4. A broken config.pbtxt: a misspelt field of inference.ModelConfig.
pbtxt=$(find artifacts/model-repository -name config.pbtxt | sort | head -1)
echo 'max_batch_sise: 8' >> "$pbtxt"
# 5. A failing promtool case: the first expected sample value of the first test file changed (a 1-minute file: the long ones hold no sample test).
test_file=$(find artifacts/promtool -name '*.test.yaml' ! -name '*.long.test.yaml' | sort | head -1)
sed -i '0,/^\( *\)value: .*$/s//\1value: 123456789/' "$test_file"

set +e
node "$root/build/lib/cli/main.js" check --require protoc,promtool --format json > report.json 2> stderr.txt
code=$?
set -e
echo "triton-ops check on the broken copy: exit $code"
[ "$code" -eq 1 ] || { cat stderr.txt report.json; echo "check-broken-output: expected exit 1, got $code" >&2; exit 1; }

PBTXT=$pbtxt TEST_FILE=$test_file node -e '
const r = JSON.parse(require("fs").readFileSync("report.json", "utf8"));
const want = [
  ["schema error", (p) => p.file === "dist/ml-serving/vision.yaml" && /^Deployment \S+\/\S+$/.test(p.object) && /\.spec\.minReadySeconds: must be integer/.test(p.reason)],
  ["dangling route host (YAML)", (p) => p.file === "dist/ml-serving/search.yaml" && /^VirtualService search\//.test(p.object) && /missing\.search\.svc\.cluster\.local.*does not define/.test(p.reason)],
  ["dangling InferencePool of an HTTPRoute", (p) => p.file === "dist/llm-serving/llm.yaml" && /^HTTPRoute llm\//.test(p.object) && /InferencePool \x27missing-pool\x27 is not an InferencePool of the output/.test(p.reason)],
  ["unknown field in a core object", (p) => p.file === "dist/ml-serving/search.yaml" && /^Service search\//.test(p.object) && p.reason === "unknown field \"bogusField\""],
  ["unknown field in a custom resource", (p) => p.file === "dist/ml-serving/vision.yaml" && /^PrometheusRule \S+\/\S+$/.test(p.object) && p.reason === "unknown field \"spec.groups[0].rules[0].bogusField\""],
  ["broken config.pbtxt", (p) => p.file === process.env.PBTXT && p.check === "model-config" && /max_batch_sise/.test(p.reason)],
  ["failing promtool case", (p) => p.file === process.env.TEST_FILE && p.command === "promtool test rules" && /exp: .*(123456789|1\.23456789E\+08)/.test(p.reason)],
];
let bad = 0;
for (const [what, match] of want) {
  const hit = r.problems.find(match);
  if (hit) console.log(`  found ${what}: ${hit.file}: ${hit.object ?? hit.command}: ${hit.reason.split("\n")[0].slice(0, 160)}`);
  else { console.error(`check-broken-output: ${what} not reported`); bad++; }
}
const extra = r.problems.filter((p) => !want.some(([, m]) => m(p)));
if (extra.length) { console.error("check-broken-output: unexpected problems:\n" + JSON.stringify(extra, null, 2)); bad++; }
if (r.skipped.length) { console.error("check-broken-output: skipped: " + JSON.stringify(r.skipped)); bad++; }
process.exit(bad ? 1 : 0);'
echo "check-broken-output: each broken object, route host, InferencePool reference, unknown field, config.pbtxt and promtool case was reported"

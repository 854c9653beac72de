#!/usr/bin/env bash
# The published package as users get it: `npm pack`, then the tarball installed from the registry's point of view
# into fresh temporary apps, each type-checked under the tsconfig `cdk8s init typescript-app` writes (CommonJS,
# node10 resolution: .ci/fresh-apps/tsconfig.cdk8s-init.json is cdk8s-cli 2.207.60's template verbatim), under
# nodenext and under bundler resolution, then synthesized:
#   (a) YAML only, with the OLDEST cdk8s / cdk8s-plus-28 / constructs the peer ranges admit: no cdktf or provider
#       package in node_modules, node_modules within the footprint bar, 'triton-ops/aws' and 'triton-ops/bridge'
#       refused with the packages to install;
#   (b) cdk8s plus cdktf and the three providers, at the versions the project tests with (its devDependencies);
#   (c) from a git URL, as `triton-ops@git+file://<bare repository holding HEAD>#<commit>` (the stand-in for
#       docs/install.md's `git+https://...#<tag>`): npm installs the clone's devDependencies and runs its `prepare`,
#       which builds build/lib; the installed files are the tarball's (when the tarball was packed here from a tree
#       whose package sources are committed); the app type-checks and synthesizes like (a), with the current peers.
# The declarations need nothing: every app has no @types/node in node_modules and type-checks, with no skipLibCheck,
# with the project's TypeScript 5 (its devDependency) and with TypeScript 7 (the native port, through the `tsc` bin of
# its package). That covers the peers' own .d.ts too: cdk8s, cdk8s-plus-28 and constructs (oldest and current), cdktf
# and the three providers compile without @types/node under all three tsconfigs (nothing for their part).
# Usage: bash .ci/fresh-apps.sh [tarball]   (without one it runs `npm pack`, whose prepack builds build/lib).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$SECONDS
YAML_ONLY_MAX_MB=${YAML_ONLY_MAX_MB:-60}
# TypeScript 7.0.2 was `npm view typescript dist-tags` latest on 2026-12-02.
TYPESCRIPT_7=${TYPESCRIPT_7:-7.0.2}

work=$(mktemp -d "${TMPDIR:-/tmp}/triton-ops-fresh-apps.XXXXXX")
trap 'rm -rf "$work"' EXIT

step() { echo "== fresh-apps: $* ($((SECONDS - started)) s)"; }
fail() { echo "fresh-apps: FAIL: $*" >&2; exit 1; }
pkg() { node -p "require('$root/package.json').$1"; }
floor() { pkg "peerDependencies['$1']" | sed 's/^[\^~]//'; }
dev() { pkg "devDependencies['$1']"; }
install() { (cd "$1" && shift && npm install --no-audit --no-fund "$@"); }

# The tarball: what `files` ships, with LICENSE and no install-time script.
packed_here=false
if [ $# -ge 1 ]; then
  tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
else
  step "npm pack"
  name=$(npm pack --pack-destination "$work" --silent | tail -1)
  tarball="$work/$name"
  packed_here=true
fi
listing=$(tar tzf "$tarball")
for f in package/LICENSE package/package.json package/build/lib/index.js package/build/lib/index.d.ts \
  package/build/lib/entries/aws.d.ts package/build/lib/entries/bridge.d.ts package/build/lib/fleet/index.d.ts package/build/lib/triton/index.d.ts \
  package/build/lib/cli/main.js package/proto/model_config.proto package/proto/LICENSE \
  package/schemas/leaderworkerset.x-k8s.io_v1_LeaderWorkerSet.json package/schemas/LICENSE \
  package/crds/json/inference.networking.k8s.io_inferencepools.json package/crds/LICENSE \
  package/manifests/json/keda-2.21.1.json package/manifests/LICENSE; do
  grep -qx "$f" <<<"$listing" || fail "$f is not in $tarball"
done
if grep -v '^package/\(build/lib/\|proto/model_config.proto$\|proto/LICENSE$\|schemas/[^/]*\.json$\|schemas/LICENSE$\|crds/json/[^/]*\.json$\|crds/README.md$\|crds/LICENSE$\|manifests/json/[^/]*\.json$\|manifests/README.md$\|manifests/LICENSE$\|LICENSE$\|README.md$\|package.json$\)' <<<"$listing"; then fail "files outside build/lib, proto/, schemas/, crds/ and manifests/ in the tarball (above)"; fi
tar xzOf "$tarball" package/package.json | node -e '
  const p = JSON.parse(require("fs").readFileSync(0, "utf8"));
  // `prepare` (the build) is not one: npm runs it only for the root project, a linked folder or a git dependency.
  const scripts = ["preinstall", "install", "postinstall"].filter((s) => p.scripts && p.scripts[s]);
  if (scripts.length) { console.error("install-time scripts in the published package: " + scripts.join(", ")); process.exit(1); }
  // One runtime dependency, exact-pinned: valibot, which validates the fleet description (lib/fleet/fleet-schema.ts).
  const deps = Object.entries(p.dependencies || {});
  const bad = deps.filter(([n, v]) => n !== "valibot" || !/^\d+\.\d+\.\d+$/.test(v));
  if (bad.length) { console.error("dependencies other than an exact-pinned valibot in the published package: " + bad.map(([n, v]) => n + "@" + v)); process.exit(1); }'
echo "tarball: $(basename "$tarball"), $(grep -c . <<<"$listing") files, $(du -k "$tarball" | cut -f1) KiB"

# Writes an app: its sources, the three tsconfigs, a CommonJS package.json like cdk8s init's.
new_app() {
  local dir=$1; shift
  mkdir -p "$dir"
  for f in "$@" tsconfig.cdk8s-init.json tsconfig.nodenext.json tsconfig.bundler.json; do cp "$root/.ci/fresh-apps/$f" "$dir/"; done
  printf '{ "name": "%s", "version": "1.0.0", "private": true, "license": "Apache-2.0" }\n' "$(basename "$dir")" > "$dir/package.json"
}

# entries.ts: every entry point of the package's `exports` but the ones named, so that each declaration reachable from
# them is checked (apps import only some).
write_entries() {
  local dir=$1; shift
  node -e '
    const skip = process.argv.slice(2).map((e) => "./" + e);
    const entries = Object.keys(require(process.argv[1]).exports).filter((e) => e !== "./package.json" && !skip.includes(e));
    for (const e of entries) console.log(`export * as ${e === "." ? "root" : e.slice(2)} from "triton-ops${e.slice(1)}";`);
  ' "$root/package.json" "$@" > "$dir/entries.ts"
}

# The tsconfigs leave the library checks on and load no ambient types beyond TypeScript's defaults.
if grep -n -e skipLibCheck -e '"types"' -e typeRoots "$root"/.ci/fresh-apps/tsconfig.*.json; then fail "a fresh-app tsconfig skips library checks or names types (above)"; fi

# No @types/node, also not pulled in by a dependency; then type checks with TypeScript 5 and 7 under the three
# resolutions (TypeScript 5 under cdk8s init's tsconfig by the compile, which has noEmitOnError) and runs the app.
check_and_run() {
  local dir=$1 main=$2 ts config
  if [ -e "$dir/node_modules/@types/node" ]; then (cd "$dir" && npm explain @types/node) >&2; fail "$dir has @types/node in node_modules"; fi
  echo "$dir/node_modules/@types: $(ls "$dir/node_modules/@types" 2>/dev/null | tr '\n' ' ' || true)(no node)"
  for ts in typescript typescript-7; do
    for config in cdk8s-init nodenext bundler; do
      [ "$ts/$config" != typescript/cdk8s-init ] || continue
      (cd "$dir" && node "node_modules/$ts/bin/tsc" -p "tsconfig.$config.json" --noEmit) \
        || fail "$dir does not type-check with $ts $(node -p "require('$dir/node_modules/$ts/package.json').version") under tsconfig.$config.json"
    done
  done
  (cd "$dir" && node node_modules/typescript/bin/tsc -p tsconfig.cdk8s-init.json) || fail "$dir does not compile with typescript under tsconfig.cdk8s-init.json"
  (cd "$dir" && node "$main.js")
}

# What the apps write: the YAML has the fleet's objects; each Terraform stack has resources.
check_yaml() {
  node -e '
    const yaml = require("fs").readFileSync(process.argv[1], "utf8");
    const kinds = ["Deployment", "Service", "ConfigMap", "VirtualService", "DestinationRule", "AuthorizationPolicy", "PeerAuthentication", "NetworkPolicy", "PodDisruptionBudget"];
    const missing = kinds.filter((k) => !yaml.includes(`kind: ${k}\n`));
    if (missing.length) { console.error(`${process.argv[1]} has no ${missing.join(", ")}`); process.exit(1); }
    console.log(`${process.argv[1]}: ${yaml.split("\n---\n").length} objects`);' "$1/dist/fresh.yaml" || fail "$1 did not synthesize the fleet's objects"
}
check_terraform() {
  node -e '
    for (const stack of ["infra", "addons", "serving"]) {
      const file = `${process.argv[1]}/cdktf.out/stacks/${stack}/cdk.tf.json`;
      const json = JSON.parse(require("fs").readFileSync(file, "utf8"));
      if (!json.resource || Object.keys(json.resource).length === 0) { console.error(`${file} has no resource`); process.exit(1); }
    }' "$1" || fail "$1 did not synthesize the three stacks"
}

tools=("typescript@$(dev typescript)" "typescript-7@npm:typescript@$TYPESCRIPT_7")

# (a) YAML only, oldest peers.
a=$work/yaml-only
new_app "$a" yaml.ts fleet.ts
write_entries "$a" aws bridge
oldest=("cdk8s@$(floor cdk8s)" "cdk8s-plus-28@$(floor cdk8s-plus-28)" "constructs@$(floor constructs)")
step "(a) npm install ${oldest[*]} and the tarball"
install "$a" "${oldest[@]}" "$tarball"
for p in cdktf @cdktf/provider-aws @cdktf/provider-kubernetes @cdktf/provider-helm @cdktf; do
  [ ! -e "$a/node_modules/$p" ] || fail "(a) a YAML-only install has $p in node_modules"
done
for p in cdk8s cdk8s-plus-28 constructs; do
  v=$(node -p "require('$a/node_modules/$p/package.json').version")
  [ "$v" = "$(floor "$p")" ] || fail "(a) $p is $v, not the oldest version the range admits ($(floor "$p"))"
done
[ "$(find "$a/node_modules" -path '*/node_modules/triton-ops/node_modules' | wc -l)" = 0 ] || fail "(a) triton-ops has nested node_modules"
size_kb=$(du -sk "$a/node_modules" | cut -f1)
size_mb=$(( (size_kb + 1023) / 1024 ))
echo "(a) YAML-only node_modules (cdk8s, cdk8s-plus-28, constructs, triton-ops and their dependencies): ${size_mb} MB (bar ${YAML_ONLY_MAX_MB} MB)"
# The five largest (awk reads all of sort's output: no SIGPIPE under pipefail).
du -sk "$a"/node_modules/* | sort -rn | awk -v a="$a/" 'NR <= 5 { sub(a, "", $2); printf "    %6d KB %s\n", $1, $2 }'
[ "$size_mb" -le "$YAML_ONLY_MAX_MB" ] || fail "(a) node_modules is ${size_mb} MB, over ${YAML_ONLY_MAX_MB} MB"
# The entry points that need cdktf fail with the packages to install; 'triton-ops', 'triton-ops/fleet' and 'triton-ops/triton' load.
for entry in aws bridge; do
  if out=$(cd "$a" && node -e "require('triton-ops/$entry')" 2>&1); then fail "(a) require('triton-ops/$entry') succeeded without cdktf"; fi
  grep -q "'triton-ops/$entry' needs packages that are not installed: cdktf@^0.21.0, @cdktf/provider-aws@" <<<"$out" \
    || fail "(a) require('triton-ops/$entry') failed without the clear message:"$'\n'"$out"
  grep -q "npm install 'cdktf@" <<<"$out" || fail "(a) the message for triton-ops/$entry has no install command"
done
echo "(a) require('triton-ops/bridge') without cdktf:"; grep -e 'needs packages' -e "npm install '" <<<"$out" | sed 's/^/    /'
(cd "$a" && node -e "require('triton-ops'); require('triton-ops/fleet'); require('triton-ops/triton')") \
  || fail "(a) 'triton-ops', 'triton-ops/fleet' or 'triton-ops/triton' does not load"
# From ES modules too: Node finds the named exports of the CommonJS build.
esm_check() {
  (cd "$1" && node --input-type=module -e "$2
const missing = Object.entries({ $3 }).filter(([, v]) => typeof v !== 'function').map(([k]) => k);
if (missing.length) { console.error('not found from ESM: ' + missing.join(', ')); process.exit(1); }") || fail "$1: named imports from ESM"
}
esm_check "$a" "import { FleetChart, TritonServer } from 'triton-ops'; import { VersionPolicy, AutoscalingMetric } from 'triton-ops/fleet';" \
  "FleetChart, TritonServer, VersionPolicy, AutoscalingMetric"
step "(a) npm install ${tools[*]}"
install "$a" --save-dev "${tools[@]}"
step "(a) type-check and synth"
check_and_run "$a" yaml
check_yaml "$a"

# (b) cdk8s, cdktf and the providers, at the versions the project tests with.
b=$work/terraform
new_app "$b" terraform.ts fleet.ts
write_entries "$b"
current=()
for p in cdk8s cdk8s-plus-28 constructs cdktf @cdktf/provider-aws @cdktf/provider-kubernetes @cdktf/provider-helm; do current+=("$p@$(dev "$p")"); done
step "(b) npm install ${current[*]} and the tarball"
install "$b" "${current[@]}" "$tarball" "${tools[@]}"
step "(b) type-check and synth"
check_and_run "$b" terraform
check_yaml "$b"
check_terraform "$b"
esm_check "$b" "import { FleetInfraStack, GpuNodeGroup } from 'triton-ops/aws'; import { FleetServingStack, ChartManifests } from 'triton-ops/bridge';" \
  "FleetInfraStack, GpuNodeGroup, FleetServingStack, ChartManifests"

# The oldest peers build the same objects as the versions the project tests with, and they pass the schemas.
cmp -s "$a/dist/fresh.yaml" "$b/dist/fresh.yaml" || { diff "$a/dist/fresh.yaml" "$b/dist/fresh.yaml" | head -40; fail "(a) and (b) synthesized different YAML"; }
# `npx triton-ops verify` in the Terraform app, outside the repository: the serving stack's kubernetes_manifest objects
# applied, scheduled on its infra stack's node pools, drained and rolled on a control plane of the binaries .ci/run
# built (TRITON_OPS_VERIFY_BIN; skipped with a line when it is not set).
if [ -n "${TRITON_OPS_VERIFY_BIN:-}" ]; then
  step "(b) npx triton-ops verify cdktf.out/stacks/serving cdktf.out/stacks/infra"
  out=$(cd "$b" && npx --no-install triton-ops verify cdktf.out/stacks/serving cdktf.out/stacks/infra --stages apply,schedule,disrupt 2>&1) \
    || fail "(b) npx triton-ops verify failed:"$'\n'"$out"
  grep -E '^(apply|schedule|disrupt):|^triton-ops verify' <<<"$out" | sed 's/^/    /'
else
  echo "(b) triton-ops verify not run: TRITON_OPS_VERIFY_BIN is not set (node tools/obtain.js verify gives it)"
fi
# `npx triton-ops check` in the YAML-only app: the bin runs; without the optional schema packages the schema check is
# skipped naming what to install (structure, cross-object rules, protoc and promtool still run), and --require fails.
step "(a) npx triton-ops check without the schema packages"
[ ! -e "$a/node_modules/kubernetes-models" ] || fail "(a) a YAML-only install has kubernetes-models in node_modules"
out=$(cd "$a" && npx --no-install triton-ops check dist 2>&1) || fail "(a) npx triton-ops check dist failed:"$'\n'"$out"
grep -q "SKIPPED schema check of .* not installed .* install with: npm install --save-dev .*'kubernetes-models@" <<<"$out" \
  || fail "(a) the skipped schema check does not say what to install:"$'\n'"$out"
grep -q "^Kubernetes objects (schema and structure): .*, [1-9][0-9]* skipped$" <<<"$out" \
  || fail "(a) objects whose schema was not checked are not counted as skipped:"$'\n'"$out"
grep "^SKIPPED" <<<"$out" | sed 's/^/    /'
if (cd "$a" && npx --no-install triton-ops check dist --require schemas >/dev/null 2>&1); then fail "(a) --require schemas passed without the schema packages"; fi
# The YAML synthesized with the oldest peers passes the whole check, with the repository's schema packages.
step "(a) the YAML synthesized with the oldest peers through the repository's triton-ops check"
(cd "$a" && node "$root/build/lib/cli/main.js" check dist --require schemas) | tail -1

# (c) From a git URL: a bare repository holding HEAD (fetched, not cloned, so that a detached HEAD works too).
c=$work/git-url
bare=$work/triton-ops.git
commit=$(git rev-parse HEAD)
git init --quiet --bare --initial-branch=main "$bare"
git -C "$bare" fetch --quiet "$root" +HEAD:refs/heads/main
new_app "$c" yaml.ts fleet.ts one-call.ts
write_entries "$c" aws bridge
step "(c) npm install triton-ops@git+file://$bare#$commit (npm builds it with its prepare script)"
install "$c" "triton-ops@git+file://$bare#$commit" "${current[@]:0:3}" "${tools[@]}"
for f in build/lib/index.js build/lib/index.d.ts build/lib/cli/main.js; do
  [ -f "$c/node_modules/triton-ops/$f" ] || fail "(c) the package installed from git has no $f"
done
if $packed_here && [ -z "$(git status --porcelain -- lib proto schemas LICENSE README.md package.json tsconfig.json tsconfig.build.json)" ]; then
  mkdir "$work/tarball" && tar xzf "$tarball" -C "$work/tarball"
  diff -r "$work/tarball/package" "$c/node_modules/triton-ops" || fail "(c) the package installed from git differs from the tarball (above)"
  echo "(c) node_modules/triton-ops from git: the tarball's $(grep -c . <<<"$listing") files, byte for byte"
else
  echo "(c) not compared with the tarball: it was given, or the package's sources have changes HEAD does not hold"
fi
step "(c) type-check and synth"
check_and_run "$c" yaml
check_yaml "$c"
cmp -s "$a/dist/fresh.yaml" "$c/dist/fresh.yaml" || fail "(a) and (c) synthesized different YAML"
step "(c) one call: runSynthFleet(FLEET, ...) writes every output and prints the summary"
(cd "$c" && node one-call.js 2> one-call.stderr) || { cat "$c/one-call.stderr" >&2; fail "(c) runSynthFleet failed"; }
head -1 "$c/one-call.stderr" | grep -qx 'triton-ops: synthesized' || { cat "$c/one-call.stderr" >&2; fail "(c) runSynthFleet printed no summary"; }
for f in dist-one-call/ml-serving/fresh.yaml artifacts-one-call/promtool/fresh-scorer-v1.rules.yaml; do
  [ -s "$c/$f" ] || fail "(c) runSynthFleet wrote no $f"
done
# CPU servers autoscaled by KEDA (the default engine) share nothing with their cluster (no device plugin, no adapter
# rules): cluster.yaml is written, empty, so that a kustomization listing it stays valid (docs/app.md).
[ -e "$c/dist-one-call/ml-serving/cluster.yaml" ] && [ ! -s "$c/dist-one-call/ml-serving/cluster.yaml" ] \
  || fail "(c) runSynthFleet wrote no empty cluster.yaml for a fleet that shares nothing with its cluster"
grep -qx '  dist-one-call/ml-serving/cluster.yaml: 0 objects' "$c/one-call.stderr" || { cat "$c/one-call.stderr" >&2; fail "(c) the summary does not count cluster.yaml's 0 objects"; }
cat "$c/one-call.stderr"

echo "fresh-apps: the YAML-only app (oldest peers), the Terraform app and the app installed from git type-check (TypeScript $(dev typescript) and $TYPESCRIPT_7, no @types/node) and synthesize ($((SECONDS - started)) s)"

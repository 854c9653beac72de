#!/usr/bin/env bash
# The synthesized YAML as GitOps tools and YAML 1.1 loaders take it (after `npm run synth`; needs /usr/bin/python3 with
# PyYAML, kubectl and the build):
# 1. every YAML file of dist/ and artifacts/ loads with PyYAML's safe_load_all (YAML 1.1) to the same data as with the
#    yaml package (YAML 1.2);
# 2. no object (group, kind, namespace, name) is emitted twice within one cluster folder dist/<cluster>/;
# 3. each dist/<cluster>/ builds with `kubectl kustomize` from a kustomization.yaml listing every file of the folder, as
#    Flux's kustomize-controller generates one for a folder of plain manifests (it lists every .yaml/.yml file under the
#    path, sub-folders included, as `resources`: fluxcd/pkg:kustomize/kustomize_generator.go@kustomize/v1.39.0 lines
#    525-570, findOrGenerateKustomization, and 575-632, scanManifests; so a Flux path must be one cluster's folder);
# 4. applying twice changes nothing: a second synth gives byte-identical dist/, artifacts/ and cdktf.out/.
# Usage: bash .ci/check-gitops-output.sh   (run from anywhere; it works in the project root)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=${TRITON_OPS_PYTHON:-/usr/bin/python3}

work=$(mktemp -d "${TMPDIR:-/tmp}/triton-ops-gitops.XXXXXX")
trap 'rm -rf "$work"' EXIT

# 1. PyYAML and yaml agree on every file.
find dist artifacts -type f \( -name '*.yaml' -o -name '*.yml' \) | sort > "$work/files"
[ -s "$work/files" ] || { echo "check-gitops-output: no YAML under dist/ or artifacts/; run npm run synth first" >&2; exit 1; }
"$python" -c '
import json, sys, yaml
out = {}
for name in open(sys.argv[1]).read().split():
    try:
        with open(name) as f:
            out[name] = {"docs": list(yaml.safe_load_all(f))}
    except Exception as error:
        out[name] = {"error": str(error).splitlines()[0]}
json.dump(out, open(sys.argv[2], "w"), default=lambda value: {"not JSON": type(value).__name__ + " " + repr(value)})
' "$work/files" "$work/pyyaml.json"
node -e '
const fs = require("fs");
const YAML = require(process.argv[1] + "/node_modules/yaml");
const pyyaml = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
let bad = 0;
for (const [file, loaded] of Object.entries(pyyaml)) {
  if ("error" in loaded) { console.error(`check-gitops-output: PyYAML cannot load ${file}: ${loaded.error}`); bad++; continue; }
  const docs = JSON.parse(JSON.stringify(YAML.parseAllDocuments(fs.readFileSync(file, "utf8")).map((d) => d.toJS())));
  if (JSON.stringify(docs) !== JSON.stringify(loaded.docs)) { console.error(`check-gitops-output: ${file} loads differently under PyYAML (YAML 1.1) and yaml (YAML 1.2)`); bad++; }
}
console.log(`PyYAML safe_load_all and yaml: ${Object.keys(pyyaml).length} files, ${bad} differing or refused`);
process.exit(bad ? 1 : 0);' "$root" "$work/pyyaml.json"

clusters=$(find dist -mindepth 1 -maxdepth 1 -type d | sort)
[ -n "$clusters" ] || { echo "check-gitops-output: no cluster folder under dist/" >&2; exit 1; }
stray=$(find dist -maxdepth 1 -type f | sort)
[ -z "$stray" ] || { echo "check-gitops-output: files outside a cluster folder: $stray" >&2; exit 1; }

for cluster in $clusters; do
  # 2. Each object once in the cluster's folder.
  node -e '
const fs = require("fs");
const path = require("path");
const YAML = require(process.argv[1] + "/node_modules/yaml");
const dir = process.argv[2];
const owners = new Map();
let bad = 0;
for (const file of fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort()) {
  for (const o of YAML.parseAllDocuments(fs.readFileSync(path.join(dir, file), "utf8")).map((d) => d.toJS())) {
    if (!o) continue;
    const group = o.apiVersion.includes("/") ? o.apiVersion.split("/")[0] : "";
    const id = `${o.kind}${group ? "." + group : ""} ${o.metadata.namespace ? o.metadata.namespace + "/" : ""}${o.metadata.name}`;
    if (owners.has(id)) { console.error(`check-gitops-output: ${id} is in ${owners.get(id)} and in ${file} of ${dir}`); bad++; }
    else owners.set(id, file);
  }
}
console.log(`${dir}: ${owners.size} objects, ${bad} emitted twice`);
process.exit(bad ? 1 : 0);' "$root" "$cluster"

  # 3. The folder as Flux builds it: a generated kustomization.yaml listing every file.
  copy="$work/kustomize/$(basename "$cluster")"
  mkdir -p "$copy"
  cp "$cluster"/*.yaml "$copy/"
  resources=$(cd "$copy" && ls -1 | grep -E '\.ya?ml$' | sed 's/^/- /')
  printf 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n%s\n' "$resources" > "$copy/kustomization.yaml"
  kubectl kustomize "$copy" > "$work/built.yaml"
  echo "$cluster: kubectl kustomize built $(grep -c '^kind: ' "$work/built.yaml") objects"
done

# 4. A second synth changes nothing.
mkdir -p "$work/first"
cp -r dist artifacts "$work/first/"
(cd cdktf.out && find . -path '*/.terraform' -prune -o -name '.terraform.lock.hcl' -prune -o -type f -print | sort | xargs sha256sum) > "$work/first/cdktf.sums"
npm run --silent synth 2> "$work/synth.log" || { cat "$work/synth.log" >&2; exit 1; }
diff -r "$work/first/dist" dist && diff -r "$work/first/artifacts" artifacts \
  && (cd cdktf.out && find . -path '*/.terraform' -prune -o -name '.terraform.lock.hcl' -prune -o -type f -print | sort | xargs sha256sum) \
  | diff "$work/first/cdktf.sums" - \
  || { echo "check-gitops-output: a second synth changed the output (above)" >&2; exit 1; }
echo "check-gitops-output: PyYAML loads every file as yaml does, every cluster folder builds with kubectl kustomize with each object once, and a second synth is byte-identical"

#!/usr/bin/env bash
# KEDA's release manifest, keda-<version>.yaml, made here as KEDA's release recipe makes it (kedacore/keda:Makefile@v2.21.1
# lines 255-267: the operator, metrics server and webhooks images set to the release, the version label set, then
# `kustomize build config/default`), from the Go module of the release tools/keda builds, with the kustomize of kubectl
# (tools/obtain.js). KEDA attaches that file to its GitHub releases, which cannot be reached here. Writes
# manifests/keda-<version>.yaml; `UPDATE_CRDS=1 npx jest test/platform/vendored-manifests` then writes its JSON. Run it when the
# KEDA pin moves (docs/development.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
version=$(sed -n 's#^\tgithub.com/kedacore/keda/v2 v\([0-9.]*\).*#\1#p' tools/keda/go.mod)
kubectl="$(node tools/obtain.js "kubernetes-$(ls tools/kubernetes | sed -n 's/^v//p' | sort -V | tail -1)")/kubectl"
# The module's go line may be newer than the machine's Go, which then refuses even to download it: take that toolchain.
toolchain="go$(sed -n 's/^go //p' tools/keda/go.mod)"
module=$(cd /tmp && GOFLAGS=-mod=mod GOTOOLCHAIN="$toolchain" go mod download -json "github.com/kedacore/keda/v2@v$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp -r "$module/config" "$work/" && chmod -R u+w "$work"
for k in manager metrics-server webhooks; do sed -i "s/^  newTag: main$/  newTag: \"$version\"/" "$work/config/$k/kustomization.yaml"; done
sed -i "s/version:[ ].*/version: $version/" "$work/config/default/kustomize-config/metadataLabelTransformer.yaml"
"$kubectl" kustomize "$work/config/default" > "manifests/keda-$version.yaml"
echo "manifests/keda-$version.yaml: $(grep -c '^kind:' "manifests/keda-$version.yaml") objects of KEDA $version"

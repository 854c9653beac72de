/**
 * tools/obtain.js, which gives the tests and CI their promtool, protoc and checkov: a tool on PATH is used only at the pinned
 * release, and a tool that cannot be had fails at once with one line naming it and how to get it.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

const { obtainTools, ToolError, PROMTOOL_VERSION, CHECKOV_VERSION } = require('../../tools/obtain');

let dir: string;
const saved = { PATH: process.env.PATH, TRITON_OPS_TOOLS_DIR: process.env.TRITON_OPS_TOOLS_DIR };
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'obtain-'));
  process.env.TRITON_OPS_TOOLS_DIR = join(dir, 'cache');
});
afterEach(() => {
  Object.assign(process.env, saved);
  rmSync(dir, { recursive: true, force: true });
});

/** A PATH of one folder holding a `promtool` that reports `version`, and `sh` for the script itself. */
function pathWithPromtool(version: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'promtool'), `#!/bin/sh\necho "promtool, version ${version} (branch: HEAD, revision: x)"\n`);
  chmodSync(join(bin, 'promtool'), 0o755);
  return bin;
}

test('a promtool on PATH at the pinned release is used as it is: nothing is built', async () => {
  expect(PROMTOOL_VERSION).toBe('3.14.0');
  process.env.PATH = pathWithPromtool('3.14.0');
  expect(await obtainTools(['promtool'], () => undefined)).toEqual([]);
});

test('another promtool on PATH (Debian\'s 2.42) is not used; with no Go to build the pinned one, one line says what to do', async () => {
  process.env.PATH = pathWithPromtool('2.42.0');
  const lines: string[] = [];
  const error = await obtainTools(['promtool'], (l: string) => lines.push(l)).catch((e: Error) => e);
  expect(error).toBeInstanceOf(ToolError);
  expect(error.message).toBe("promtool 3.14.0: cannot build it, 'go' is not on PATH; install Go 1.25.8 or newer and run 'npm run tools', or put promtool 3.14.0 on PATH");
  expect(lines).toEqual([]);
});

test('protoc with no python3 to install it with: one line naming protoc and what to do', async () => {
  process.env.PATH = join(dir, 'empty');
  await expect(obtainTools(['protoc'], () => undefined)).rejects.toThrow(
    new ToolError("protoc 35.1: cannot install it, 'python3' is not on PATH; install python3 with pip and run 'npm run tools', or put protoc 35.1 on PATH"));
});

test('a checkov on PATH at the pinned release is used as it is; another release is not, and with no python3 one line says what to do', async () => {
  expect(CHECKOV_VERSION).toBe('3.3.30');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const checkov = (version: string) => writeFileSync(join(bin, 'checkov'), `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
  process.env.PATH = bin;
  checkov('3.3.30');
  expect(await obtainTools(['checkov'], () => undefined)).toEqual([]);
  checkov('3.2.0');
  await expect(obtainTools(['checkov'], () => undefined)).rejects.toThrow(new ToolError(
    "checkov 3.3.30: cannot install it, 'python3' is not on PATH; install python3 (3.9 or newer) with pip and run 'npm run tools checkov', or put checkov 3.3.30 on PATH"));
});

test('an unknown tool is refused with the known ones', async () => {
  await expect(obtainTools(['kubectl'], () => undefined)).rejects.toThrow("unknown tool 'kubectl'; known: promtool, protoc, checkov, prometheus, etcd, kwok, prometheus-adapter, keda, verify-crds, kubernetes-1.34.4, kubernetes-1.36.3");
});

test("verify's components are the pinned releases: the adapter chart's appVersion, Istio's charts, KEDA's release manifest (KEDA's build; its CRDs come from the manifest), the supported cluster range", () => {
  const { PROMETHEUS_ADAPTER_VERSION, KEDA_VERSION, CRD_MODULES, KUBERNETES_RELEASES } = require('../../tools/obtain');
  const { pins } = require('../../lib/fleet/pins');
  const { EKS_SUPPORTED_VERSIONS, EKS_DEFAULT_KUBERNETES_VERSION } = require('../../lib/triton/releases/eks-versions');
  const chart = (component: string) => pins().find((p: { component: string }) => p.component === component).version;
  // prometheus-community/helm-charts:charts/prometheus-adapter/Chart.yaml@prometheus-adapter-5.3.0 line 4: appVersion: v0.12.0
  expect(chart('prometheus-adapter')).toBe('5.3.0');
  expect(PROMETHEUS_ADAPTER_VERSION).toBe('0.12.0');
  const crd = (module: string) => CRD_MODULES.find((m: { module: string }) => m.module === module).version;
  expect(crd('istio.io/api')).toBe(`v${chart('istio base')}`);
  expect(KEDA_VERSION).toBe(chart('keda'));
  expect(pins().find((p: { component: string }) => p.component === 'keda').kind).toBe('release-manifest');
  expect(CRD_MODULES.map((m: { module: string }) => m.module)).toEqual(['istio.io/api']);
  expect(KUBERNETES_RELEASES.map((r: string) => r.split('.').slice(0, 2).join('.'))).toEqual([EKS_SUPPORTED_VERSIONS.min, EKS_DEFAULT_KUBERNETES_VERSION]);
});

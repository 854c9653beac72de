/**
 * A Kubernetes control plane of plain processes on loopback, as envtest and kwokctl's binary runtime start one:
 * etcd, kube-apiserver, then (for the stages that need them) kube-controller-manager, kube-scheduler and kwok, the
 * simulated kubelet that makes nodes Ready and scheduled pods Running. Flags follow envtest
 * (kubernetes-sigs/controller-runtime:pkg/internal/testing/controlplane/{etcd,apiserver}.go@v0.24.1) and kwokctl
 * (kubernetes-sigs/kwok:pkg/kwokctl/components/kwok_controller.go@v0.8.0). Every process logs to a file of the work
 * folder, named in the error when it fails to start.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes, generateKeyPairSync } from 'node:crypto';
import { makeCertificates } from './certificates';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port';
import { KubeApi } from './kube-api';

/** The annotation kwok manages nodes by (its --manage-nodes-with-annotation-selector). */
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';

export interface ControlPlaneOptions {
  /** The binaries by name (etcd, kube-apiserver, ...), from findBinaries. */
  readonly binaries: Readonly<Record<string, string>>;
  /** A fresh folder for data, keys and logs. */
  readonly workDir: string;
  /** Start the controllers, the scheduler and kwok too (not needed to apply). */
  readonly controllers: boolean;
  /**
   * Serve aggregated APIs (a metrics adapter): a front-proxy CA and client certificate made with openssl, which the
   * API server presents to the adapter and the adapter checks (kubernetes.io/docs/tasks/extend-kubernetes/configure-aggregation-layer).
   */
  readonly aggregation: boolean;
  readonly log: (line: string) => void;
}

export interface ControlPlane {
  readonly api: KubeApi;
  /** A kubeconfig file for the components (and for a user who wants to look). */
  readonly kubeconfig: string;
  readonly workDir: string;
  /** Starts one more component (a metrics adapter, KEDA), with `env` added to verify's; it is stopped with the rest. */
  start(name: string, file: string, args: readonly string[], env?: Readonly<Record<string, string>>): ChildProcess;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `ready` every 250 ms until it is true; throws naming `what` and its log after `seconds`. */
async function waitFor(what: string, seconds: number, ready: () => Promise<boolean>, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    const gone = exited();
    if (gone) throw new Error(gone);
    if (await ready().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`${what} was not ready within ${seconds} s`);
}

/** The front-proxy CA and the API server's client certificate for aggregated APIs, and the flags that name them. */
function frontProxy(openssl: string, dir: string): string[] {
  const f = (name: string) => join(dir, name);
  makeCertificates(openssl, {
    caSubject: '/CN=front-proxy-ca', caKey: f('front-proxy-ca.key'), caCert: f('front-proxy-ca.crt'),
    subject: '/CN=front-proxy-client', key: f('front-proxy-client.key'), cert: f('front-proxy-client.crt'),
  });
  return [
    `--requestheader-client-ca-file=${f('front-proxy-ca.crt')}`, '--requestheader-allowed-names=front-proxy-client',
    '--requestheader-username-headers=X-Remote-User', '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-', `--proxy-client-cert-file=${f('front-proxy-client.crt')}`,
    `--proxy-client-key-file=${f('front-proxy-client.key')}`,
  ];
}

export async function startControlPlane(o: ControlPlaneOptions): Promise<ControlPlane> {
  const dir = o.workDir;
  mkdirSync(dir, { recursive: true });
  const children: { name: string; child: ChildProcess; log: string }[] = [];
  const exitedEarly = (name: string) => () => {
    const c = children.find((x) => x.name === name);
    if (c && c.child.exitCode !== null) {
      const tail = readFileSync(c.log, 'utf8').trim().split('\n').slice(-3).join(' | ');
      return `${name} exited with code ${c.child.exitCode}: ${tail} (log: ${c.log})`;
    }
    return undefined;
  };
  const start = (name: string, file: string, args: readonly string[], env: Readonly<Record<string, string>> = {}) => {
    const log = join(dir, `${name}.log`);
    const fd = openSync(log, 'w');
    const child = spawn(file, args, { stdio: ['ignore', fd, fd], cwd: dir, env: { ...process.env, ...env } });
    closeSync(fd);
    children.push({ name, child, log });
    return child;
  };
  const stop = async () => {
    for (const { child } of [...children].reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, sleep(5000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  };

  try {
    const [etcdPort, peerPort, apiPort] = [await freePort(), await freePort(), await freePort()];
    o.log(`  starting etcd on 127.0.0.1:${etcdPort}`);
    start('etcd', o.binaries.etcd, [
      `--data-dir=${join(dir, 'etcd')}`, `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdPort}`, `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`, `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
      '--unsafe-no-fsync=true', '--log-level=warn',
    ]);
    await waitFor('etcd', 30, async () => (await fetch(`http://127.0.0.1:${etcdPort}/health`)).ok, exitedEarly('etcd'));

    // The service-account signing key and one admin token: no client certificates are needed on loopback.
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
    const token = randomBytes(24).toString('hex');
    writeFileSync(join(dir, 'tokens.csv'), `${token},triton-ops-verify,triton-ops-verify,"system:masters"\n`, { mode: 0o600 });
    const server = `https://127.0.0.1:${apiPort}`;
    const aggregation = o.aggregation ? frontProxy(o.binaries.openssl, dir) : [];
    o.log(`  starting kube-apiserver on ${server}`);
    start('kube-apiserver', o.binaries['kube-apiserver'], [
      `--etcd-servers=http://127.0.0.1:${etcdPort}`, `--secure-port=${apiPort}`, '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1', `--cert-dir=${join(dir, 'apiserver-certs')}`,
      '--service-cluster-ip-range=10.96.0.0/16', '--allow-privileged=true', '--authorization-mode=Node,RBAC',
      `--token-auth-file=${join(dir, 'tokens.csv')}`, `--service-account-issuer=${server}`,
      `--service-account-key-file=${join(dir, 'sa.pub')}`, `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
      // Endpoints refuse a loopback address, so the `kubernetes` Service's endpoints are not reconciled.
      '--endpoint-reconciler-type=none', '--v=1', ...aggregation,
    ]);
    const api = new KubeApi(server, token);
    await waitFor('kube-apiserver', 90, async () => (await api.call('GET', '/readyz')).status === 200, exitedEarly('kube-apiserver'));

    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, JSON.stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'verify',
      clusters: [{ name: 'verify', cluster: { server, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'verify', user: { token } }],
      contexts: [{ name: 'verify', context: { cluster: 'verify', user: 'verify' } }],
    }, null, 2), { mode: 0o600 });

    if (o.controllers) {
      o.log('  starting kube-controller-manager, kube-scheduler and kwok');
      start('kube-controller-manager', o.binaries['kube-controller-manager'], [
        `--kubeconfig=${kubeconfig}`, `--authentication-kubeconfig=${kubeconfig}`, `--authorization-kubeconfig=${kubeconfig}`,
        '--leader-elect=false', '--bind-address=127.0.0.1', `--secure-port=${await freePort()}`,
        `--service-account-private-key-file=${join(dir, 'sa.key')}`, `--root-ca-file=${join(dir, 'apiserver-certs', 'apiserver.crt')}`,
        '--use-service-account-credentials=false', '--horizontal-pod-autoscaler-sync-period=5s',
        '--horizontal-pod-autoscaler-initial-readiness-delay=5s', '--horizontal-pod-autoscaler-cpu-initialization-period=5s',
        '--concurrent-deployment-syncs=10', '--concurrent-replicaset-syncs=10', '--v=1',
      ]);
      start('kube-scheduler', o.binaries['kube-scheduler'], [
        `--kubeconfig=${kubeconfig}`, `--authentication-kubeconfig=${kubeconfig}`, `--authorization-kubeconfig=${kubeconfig}`,
        '--leader-elect=false', '--bind-address=127.0.0.1', `--secure-port=${await freePort()}`, '--v=1',
      ]);
      const kwokPort = await freePort();
      start('kwok', o.binaries.kwok, [
        `--kubeconfig=${kubeconfig}`, `--config=${o.binaries['kwok-stages.yaml']}`, '--manage-all-nodes=false',
        `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=fake`, '--node-ip=127.0.0.1',
        `--server-address=127.0.0.1:${kwokPort}`, '--node-lease-duration-seconds=40', '--cidr=10.244.0.0/16',
      ]);
      // The controllers are ready when the `default` ServiceAccount controller has run.
      await waitFor('kube-controller-manager', 60,
        async () => (await api.call('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200,
        () => exitedEarly('kube-controller-manager')() ?? exitedEarly('kube-scheduler')() ?? exitedEarly('kwok')());
    }
    return { api, kubeconfig, workDir: dir, start, stop: async () => { api.close(); await stop(); } };
  } catch (e) {
    await stop();
    throw e;
  }
}

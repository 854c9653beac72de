/**
 * Ports for the processes verify starts on loopback. A port from listen(0) comes out of the kernel's ephemeral range,
 * the range it also takes the source port of every outgoing connection from: between the check and the component's
 * own bind, any connection on the machine (verify's own polling included) can take it, and the component exits with
 * "address already in use" (CI, 2026-12-06: kube-apiserver). Below that range the kernel hands out no port by itself,
 * so a port found free there stays free unless another program binds that very number.
 */
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port handed out; below are the well-known and the commonly configured ones. */
const LOWEST = 10000;
/** Where the ephemeral range starts by default on Linux (32768); macOS and Windows start theirs at 49152. */
const DEFAULT_EPHEMERAL_START = 32768;
/** Ports this process has handed out: two components are never given one port, even before either binds it. */
const handedOut = new Set<number>();

/** The first port of Linux's ephemeral range, or the default where the kernel does not say. */
function ephemeralStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) ? Math.min(start, DEFAULT_EPHEMERAL_START) : DEFAULT_EPHEMERAL_START;
  } catch {
    return DEFAULT_EPHEMERAL_START;
  }
}

/** Listens on 127.0.0.1:`port` (0: any) and closes again; the port it had, or undefined when it was taken. */
function probe(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A free TCP port of 127.0.0.1 below the ephemeral range, never one this process handed out before; from the ephemeral
 * range only when a machine's range starts so low that 50 tries below it found nothing.
 */
export async function freePort(): Promise<number> {
  const ceiling = ephemeralStart();
  for (let attempt = 0; attempt < 50 && ceiling > LOWEST; attempt++) {
    const port = randomInt(LOWEST, ceiling);
    if (!handedOut.has(port) && (await probe(port)) === port) {
      handedOut.add(port);
      return port;
    }
  }
  const port = await probe(0);
  if (port === undefined) throw new Error('no free TCP port on 127.0.0.1');
  handedOut.add(port);
  return port;
}

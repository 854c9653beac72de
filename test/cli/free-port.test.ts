/**
 * verify's ports come from below the kernel's ephemeral range, where no outgoing connection takes one between the check
 * and the component's bind, and a port is handed out once.
 */
import { readFileSync } from 'fs';
import { createServer, Server } from 'net';
import { freePort } from '../../lib/cli/verify/free-port';

const ephemeralStart = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
const listen = (port: number) => new Promise<Server>((resolve, reject) => {
  const server = createServer();
  server.once('error', reject);
  server.listen(port, '127.0.0.1', () => resolve(server));
});

test('20 ports: each below the ephemeral range, none twice, each one a component can bind', async () => {
  const ports: number[] = [];
  for (let i = 0; i < 20; i++) ports.push(await freePort());
  expect(new Set(ports).size).toBe(20);
  for (const port of ports) expect(port >= 10000 && port < Math.min(ephemeralStart, 32768)).toBe(true);
  const servers = await Promise.all(ports.map(listen));
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

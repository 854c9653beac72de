import { ChildProcess, spawn } from 'child_process';
import { createServer, get, Server } from 'http';
import { freePort } from '../../../lib/cli/verify/free-port';
import { METRICS_RELAY_PROGRAM } from '../../../lib/triton/llm/openai-metrics-relay';
import { METRICS_PORT, OPENAI_PORT } from '../../../lib/triton/serving/server-ports';

/** GET `path` of the relay: the status and the body. */
function fetchRelay(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

/** The frontend's stand-in: answers /metrics with `status` and a page. */
async function upstream(port: number, status: number): Promise<Server> {
  const server = createServer((_req, res) => { res.statusCode = status; res.end('nv_inference_count{model="llama"} 3\n'); });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

const close = (server: Server) => new Promise((resolve) => server.close(resolve));

describe('the metrics relay program (run with python3)', () => {
  let relay: ChildProcess;
  let relayPort: number;
  let frontendPort: number;

  beforeAll(async () => {
    relayPort = await freePort();
    frontendPort = await freePort();
    const program = METRICS_RELAY_PROGRAM
      .replace(`127.0.0.1:${OPENAI_PORT.port}`, `127.0.0.1:${frontendPort}`)
      .replace(`("0.0.0.0", ${METRICS_PORT.port})`, `("127.0.0.1", ${relayPort})`);
    relay = spawn('python3', ['-c', program], { stdio: 'ignore' });
    // Wait until it listens.
    for (let i = 0; i < 100; i++) {
      try { await fetchRelay(relayPort, '/healthz'); return; } catch { await new Promise((r) => setTimeout(r, 50)); }
    }
    throw new Error('the relay did not start');
  });

  afterAll(() => { if (relay.exitCode === null) relay.kill('SIGKILL'); });

  test('an empty page before the frontend ever answered, its page after, 503 once it stops, 502 on its errors, 404 elsewhere', async () => {
    expect(await fetchRelay(relayPort, '/metrics')).toEqual({ status: 200, body: '' });
    let frontend = await upstream(frontendPort, 200);
    expect(await fetchRelay(relayPort, '/metrics')).toEqual({ status: 200, body: 'nv_inference_count{model="llama"} 3\n' });
    await close(frontend);
    expect((await fetchRelay(relayPort, '/metrics')).status).toBe(503);
    frontend = await upstream(frontendPort, 500);
    expect((await fetchRelay(relayPort, '/metrics')).status).toBe(502);
    await close(frontend);
    expect((await fetchRelay(relayPort, '/v1/models')).status).toBe(404);
  });

  test('SIGTERM ends it at once', async () => {
    const exited = new Promise<number | null>((resolve) => relay.on('exit', (code) => resolve(code)));
    relay.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

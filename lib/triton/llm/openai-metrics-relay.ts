/**
 * The metrics relay of a server that runs through the OpenAI-compatible frontend. The frontend serves Triton's
 * metrics at `GET /metrics` on its one port, the port of the inference API; Triton's own metrics port is not opened
 * (`tritonfrontend.Metrics` is never started by the frontend). Scraping that port from a Prometheus outside the mesh
 * would need the sidecar bypassed on it, which would take inference out of mTLS and authorization. So a small relay
 * beside the frontend answers the usual metrics port (8002) with what the frontend serves at `/metrics` over the
 * pod's loopback: monitors, the NetworkPolicy, the sidecar bypass and the authorization of metrics stay those of every
 * other server, and the relay can reach nothing but that one path.
 * Pure: the program (Python 3 standard library, from the server's own image) and its command.
 */
import { METRICS_PATH, METRICS_PORT, OPENAI_PORT } from '../serving/server-ports';

/** Defaults of the relay, one named constant each (asserted by the tests). */
export const METRICS_RELAY_DEFAULTS = {
  /** Name of the relay's container, beside the Triton container. */
  containerName: 'metrics-relay',
  /** CPU request and limit in millicores: one small text response per scrape. */
  cpuMillis: 100,
  /** Memory request and limit in MiB: a Python interpreter and one metrics page. */
  memoryMiB: 64,
  /** Seconds the relay waits for the frontend's page; below TritonScrape's default scrape timeout (10 s). */
  upstreamTimeoutSeconds: 5,
} as const;

/** The relay's own liveness and readiness: answered by the relay itself, whatever the frontend does. */
export const METRICS_RELAY_HEALTH_PATH = '/healthz';

/**
 * The relay, a Python 3 program of the standard library. `GET /metrics` returns the frontend's page as it is. Until
 * the frontend has answered once (it opens its port only once every model is loaded, which takes minutes for an LLM)
 * the relay answers an empty page: the target is up with no samples, so a long model load does not read as a server
 * that is down (a frontend that never becomes ready shows as a pod that is not ready). Once it has answered, a
 * frontend that stops listening (a crash) answers 503, and any other failure (an error status, a timeout) 502: the
 * target is down and TritonTargetDown fires. Any other path is 404. SIGTERM ends it at once: as PID 1 of its container
 * it would otherwise ignore the signal and hold the pod for its whole grace period.
 */
export const METRICS_RELAY_PROGRAM = [
  'import http.server, signal, sys, urllib.error, urllib.request',
  'signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))',
  `UPSTREAM = "http://127.0.0.1:${OPENAI_PORT.port}${METRICS_PATH}"`,
  'answered = False',
  'class Relay(http.server.BaseHTTPRequestHandler):',
  '    def do_GET(self):',
  `        if self.path == "${METRICS_RELAY_HEALTH_PATH}":`,
  '            return self.reply(200, b"")',
  `        if self.path.split("?")[0] != "${METRICS_PATH}":`,
  '            return self.reply(404, b"")',
  '        global answered',
  '        try:',
  `            with urllib.request.urlopen(UPSTREAM, timeout=${METRICS_RELAY_DEFAULTS.upstreamTimeoutSeconds}) as page:`,
  '                body = page.read()',
  '            answered = True',
  '            return self.reply(200, body)',
  '        except urllib.error.URLError as error:',
  '            refused = isinstance(error.reason, ConnectionRefusedError)',
  '            return self.reply((503 if answered else 200) if refused else 502, b"")',
  '        except Exception:',
  '            return self.reply(502, b"")',
  '    def reply(self, status, body):',
  '        self.send_response(status)',
  '        self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")',
  '        self.send_header("Content-Length", str(len(body)))',
  '        self.end_headers()',
  '        self.wfile.write(body)',
  '    def log_message(self, *args):',
  '        pass',
  `http.server.ThreadingHTTPServer(("0.0.0.0", ${METRICS_PORT.port}), Relay).serve_forever()`,
].join('\n');

/** The relay container's command. */
export const METRICS_RELAY_COMMAND: readonly string[] = Object.freeze(['python3', '-c', METRICS_RELAY_PROGRAM]);

/**
 * The container HEALTHCHECK (built to dist/healthcheck.js): one GET /healthz
 * on this container's own server, bounded to 2 s; exit 0 on a 200, else 1.
 *
 * One image runs every role, so the port follows the role: the API (`serve`,
 * `start`) answers on PORT (8080), a `worker` process on METRICS_PORT (9464),
 * where it serves /metrics, /healthz and /readyz. The role is read from the
 * container's command line (PID 1 is tini, then node and the launcher). A port
 * given as the first argument wins.
 *
 *   node dist/healthcheck.js [port]
 */
import { readFileSync } from "node:fs";

const TIMEOUT_MS = 2_000;

function containerCommand(): string[] {
  try {
    return readFileSync("/proc/1/cmdline", "utf8").split("\0");
  } catch {
    return [];
  }
}

function portOf(argv: string[], env: NodeJS.ProcessEnv): string {
  if (argv[0]) return argv[0];
  if (containerCommand().includes("worker")) return env.METRICS_PORT || "9464";
  return env.PORT || "8080";
}

const port = portOf(process.argv.slice(2), process.env);
try {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (res.status !== 200) console.error(`healthcheck: /healthz on port ${port} answered ${res.status}`);
  process.exitCode = res.status === 200 ? 0 : 1;
} catch (err) {
  console.error(`healthcheck: /healthz on port ${port} did not answer (${(err as Error).name})`);
  process.exitCode = 1;
}

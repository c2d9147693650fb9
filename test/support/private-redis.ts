/**
 * A private, throw-away redis-server on an ephemeral port, for tests that must
 * FLUSHALL without wiping what other suites keep in the shared Redis.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import net from "node:net";
import { tcpReachable } from "./services";

export interface PrivateRedis {
  url: string;
  /** Stops the server (SIGTERM; it keeps nothing: no RDB, no AOF) and starts a new one on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export function redisServerBinary(): string | undefined {
  const r = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" });
  const p = r.stdout.trim();
  return r.status === 0 && p ? p : undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => (typeof a === "object" && a ? resolve(a.port) : reject(new Error("no port"))));
    });
  });
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const bin = redisServerBinary();
  if (!bin) throw new Error("redis-server is not installed");
  const port = await freePort();
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(bin, ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no", "--protected-mode", "yes"], { stdio: "ignore" });
    const deadline = Date.now() + 10_000;
    while (!(await tcpReachable("127.0.0.1", port, 300))) {
      if (Date.now() > deadline) throw new Error("private redis-server did not start");
      await new Promise((r) => setTimeout(r, 50));
    }
    return child;
  };
  const kill = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  let child = await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => {
      await kill(child);
      child = await launch();
    },
    stop: () => kill(child),
  };
}

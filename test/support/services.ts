/**
 * Which real servers the tests can reach (RUN-2). A test that needs one that is
 * not reachable is skipped with a printed reason — unless REQUIRE_SERVICES=1,
 * which turns the skip into a failure. URLs come from the environment (.ci/run
 * sources test/services/.env.services); where Docker is available and no URL is
 * given, test/support/global-setup.ts starts the server with testcontainers.
 */
import net from "node:net";
import { describe, it } from "vitest";

export const REQUIRE_SERVICES = process.env.REQUIRE_SERVICES === "1";

export type ServiceName = "postgres" | "redis" | "neo4j" | "milvus" | "hugegraph";

export const SERVICE_ENV: Record<ServiceName, string> = {
  postgres: "TEST_DATABASE_URL",
  redis: "REDIS_URL",
  neo4j: "NEO4J_URL",
  milvus: "MILVUS_URL",
  hugegraph: "HUGEGRAPH_URL",
};

export function serviceUrl(name: ServiceName): string | undefined {
  const v = process.env[SERVICE_ENV[name]] ?? (name === "postgres" ? process.env.DATABASE_URL : undefined);
  return v && v.length > 0 ? v : undefined;
}

/** host:port of a URL-ish string (bolt://h:p, redis://h:p, h:p). */
export function hostPort(url: string, defaultPort: number): { host: string; port: number } {
  const withScheme = url.includes("://") ? url : `tcp://${url}`;
  const u = new URL(withScheme);
  return { host: u.hostname || "127.0.0.1", port: Number(u.port || defaultPort) };
}

export function tcpReachable(host: string, port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once("connect", () => done(true));
    s.once("error", () => done(false));
  });
}

const DEFAULT_PORT: Record<ServiceName, number> = { postgres: 5432, redis: 6379, neo4j: 7687, milvus: 19530, hugegraph: 8080 };

export interface ServiceStatus {
  name: ServiceName;
  url: string | undefined;
  available: boolean;
  reason: string;
}

const cache = new Map<ServiceName, Promise<ServiceStatus>>();

export function probeService(name: ServiceName): Promise<ServiceStatus> {
  let p = cache.get(name);
  if (!p) {
    p = (async () => {
      const url = serviceUrl(name);
      if (!url) return { name, url, available: false, reason: `${SERVICE_ENV[name]} is not set` };
      const { host, port } = hostPort(url, DEFAULT_PORT[name]);
      const ok = await tcpReachable(host, port);
      return { name, url, available: ok, reason: ok ? "reachable" : `${name} at ${host}:${port} is not reachable` };
    })();
    cache.set(name, p);
  }
  return p;
}

/**
 * describe() for a suite that needs a real server: runs it when the server is
 * reachable, skips it with a printed reason otherwise, and fails instead of
 * skipping when REQUIRE_SERVICES=1.
 */
export function describeWithService(status: ServiceStatus, title: string, body: () => void): void {
  if (status.available) {
    describe(title, body);
    return;
  }
  if (REQUIRE_SERVICES) {
    describe(title, () => {
      it(`requires ${status.name}`, () => {
        throw new Error(`REQUIRE_SERVICES=1 but ${status.reason}`);
      });
    });
    return;
  }
  console.warn(`[skip] ${title}: ${status.reason}`);
  describe.skip(title, body);
}

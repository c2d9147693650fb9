/**
 * RUN-2: where Docker is available and a service's URL is not given,
 * testcontainers starts the server for the whole test run; the URL is put in
 * the environment the test files inherit. Without Docker nothing happens here,
 * and test/support/services.ts skips (or, with REQUIRE_SERVICES=1, fails) the
 * suites that need the missing server. On machines without a Docker engine,
 * `bash test/services/start-all.sh` starts the same servers from packages.
 *
 * Temporary files: the run gets its own directory under the system's, made the temporary
 * directory (TMPDIR) of every test file and every process they start, and removed when the run
 * ends — so data directories, archives, browser profiles and scratch checkouts a test forgets (or
 * that a killed process leaves) do not pile up in the system temporary directory.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

type Stop = () => Promise<unknown>;

function dockerAvailable(): boolean {
  if (process.env.CODESYNAPSE_NO_TESTCONTAINERS === "1") return false;
  return Boolean(process.env.DOCKER_HOST) || existsSync("/var/run/docker.sock");
}

export default async function setup(): Promise<() => Promise<void>> {
  const runTmp = mkdtempSync(path.join(os.tmpdir(), "codesynapse-test-run-"));
  // Traversable, not listable, by other users: a server a test starts as its own user (a private
  // PostgreSQL runs as `postgres` when the tests run as root) must reach its directory in here.
  chmodSync(runTmp, 0o711);
  process.env.TMPDIR = runTmp;
  const removeTmp = () => rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });
  const stops: Stop[] = [];
  if (!dockerAvailable()) return async () => removeTmp();
  const { GenericContainer, Wait } = await import("testcontainers");
  const start = async (name: string, env: string, fn: () => Promise<{ url: string; stop: Stop }>) => {
    if (process.env[env]) return;
    try {
      const { url, stop } = await fn();
      process.env[env] = url;
      stops.push(stop);
      console.log(`[testcontainers] ${name} started for this run`);
    } catch (err) {
      console.warn(`[testcontainers] ${name} could not start: ${(err as Error).message}`);
    }
  };
  if (!process.env.DATABASE_URL) {
    await start("postgres", "TEST_DATABASE_URL", async () => {
      const c = await new GenericContainer("postgres:15")
        .withEnvironment({ POSTGRES_USER: "codesynapse", POSTGRES_PASSWORD: "codesynapse", POSTGRES_DB: "codesynapse_test" })
        .withExposedPorts(5432)
        .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
        .start();
      return { url: `postgres://codesynapse:codesynapse@${c.getHost()}:${c.getMappedPort(5432)}/codesynapse_test`, stop: () => c.stop() };
    });
  }
  await start("redis", "REDIS_URL", async () => {
    const c = await new GenericContainer("redis:7").withExposedPorts(6379).start();
    return { url: `redis://${c.getHost()}:${c.getMappedPort(6379)}`, stop: () => c.stop() };
  });
  await start("neo4j", "NEO4J_URL", async () => {
    const c = await new GenericContainer("neo4j:5-community")
      .withEnvironment({ NEO4J_AUTH: "neo4j/codesynapse-neo4j" })
      .withExposedPorts(7687)
      .withWaitStrategy(Wait.forLogMessage(/Started\./))
      .start();
    process.env.NEO4J_USER ??= "neo4j";
    process.env.NEO4J_PASSWORD ??= "codesynapse-neo4j";
    return { url: `bolt://${c.getHost()}:${c.getMappedPort(7687)}`, stop: () => c.stop() };
  });
  await start("hugegraph", "HUGEGRAPH_URL", async () => {
    const c = await new GenericContainer("hugegraph/hugegraph:1.5.0").withExposedPorts(8080).withWaitStrategy(Wait.forHttp("/apis/version", 8080)).start();
    return { url: `http://${c.getHost()}:${c.getMappedPort(8080)}`, stop: () => c.stop() };
  });
  await start("milvus", "MILVUS_URL", async () => {
    const c = await new GenericContainer("milvusdb/milvus:v2.5.4")
      .withCommand(["milvus", "run", "standalone"])
      .withEnvironment({ ETCD_USE_EMBED: "true", COMMON_STORAGETYPE: "local", ETCD_DATA_DIR: "/var/lib/milvus/etcd" })
      .withExposedPorts(19530, 9091)
      .withWaitStrategy(Wait.forHttp("/healthz", 9091))
      .start();
    return { url: `${c.getHost()}:${c.getMappedPort(19530)}`, stop: () => c.stop() };
  });
  return async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    removeTmp();
  };
}

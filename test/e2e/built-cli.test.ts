/**
 * The production build, run as a deployment runs it: `scripts/build.mjs` bundles
 * into a staged layout (bin/ and dist/ only, no TypeScript beside them, the
 * packages resolved from node_modules as in the image), and every command runs
 * with plain `node`, never tsx:
 * - embedded default: migrate through the launcher (which must pick dist/),
 *   the admin CLI, `start` (API and every pool in one process) serving
 *   /healthz and /readyz, the container healthcheck, an upload ingested by
 *   the bundled pools, secretlint masking a token only its rules know, the
 *   stdio MCP server, and a graceful SIGTERM;
 * - PostgreSQL and Redis: `serve` and a separate `worker --pools` process,
 *   the ingest job run by the worker process.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { openDatabase } from "../../db/database";
import { fixtureTar } from "../support/archives";
import { FIXTURE_FILES } from "../support/fixture-repo";
import { seedAccount } from "../support/fixtures";
import { call, ingestArchive, registerThread } from "../support/http";
import { cleanEnv, runScript, startScript, type RunResult, type Started } from "../support/process";
import { startPrivateRedis, type PrivateRedis } from "../support/private-redis";
import { describeWithService, probeService } from "../support/services";

const ROOT = path.resolve(import.meta.dirname, "../..");
// Inside the checkout (test/artifacts/ is ignored), so the bundle's package imports resolve from its node_modules.
const STAGE = path.join(ROOT, "test/artifacts", `built-cli-${process.pid}`);
const LAUNCHER = path.join(STAGE, "bin/codesynapse.js");
const CLI = path.join(STAGE, "dist/cli.js");
const HEALTHCHECK = path.join(STAGE, "dist/healthcheck.js");

// Generous bounds: an embedded PGlite opens in seconds, but minutes on a 2-core machine other test runs load.
const run = (file: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 240_000): Promise<RunResult> => runScript(file, args, env, timeoutMs);

/** Starts a built server command; ready on its "listening" line (`serve`, `start`) or "worker pools started" (`worker`). */
const startBuilt = (args: string[], env: NodeJS.ProcessEnv): Promise<Started> =>
  startScript(CLI, args, env, { timeoutMs: 240_000, ready: ['"msg":"listening"', ...(args[0] === "worker" ? ['"msg":"worker pools started"'] : [])] });

const listFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));

beforeAll(async () => {
  rmSync(STAGE, { recursive: true, force: true });
  mkdirSync(path.join(STAGE, "bin"), { recursive: true });
  copyFileSync(path.join(ROOT, "bin/codesynapse.js"), LAUNCHER);
  // As in the image: the launcher's Node check beside it, and package.json (its engines range) above.
  copyFileSync(path.join(ROOT, "bin/supported-node.js"), path.join(STAGE, "bin/supported-node.js"));
  copyFileSync(path.join(ROOT, "package.json"), path.join(STAGE, "package.json"));
  const built = await run(path.join(ROOT, "scripts/build.mjs"), ["--outdir", path.join(STAGE, "dist")], process.env);
  expect(built.code, built.stderr).toBe(0);
  expect(built.stdout).toMatch(/^built .*dist\/ \(\d+ modules, \d+ KiB of JavaScript; pglite-template\/pglite-[\d.]+\.tar\.gz\)/);
}, 240_000);
afterAll(() => rmSync(STAGE, { recursive: true, force: true }));

describe("the built CLI on the embedded default", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "codesynapse-built-"));
  const env = cleanEnv({ CODESYNAPSE_DATA_DIR: dataDir });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const admin = async (...args: string[]): Promise<any> => {
    const r = await run(CLI, ["admin", ...args, "--json"], env);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout.trim());
  };

  it("the build holds JavaScript only; the launcher beside it runs dist/ and migrates", async () => {
    const files = listFiles(STAGE).map((f) => path.relative(STAGE, f));
    expect(files).toContain("dist/cli.js");
    // The embedded database's cluster template: a fresh data directory is unpacked from it, no initdb in the server.
    expect(files.filter((f) => f.startsWith("dist/pglite-template/"))).toEqual([expect.stringMatching(/^dist\/pglite-template\/pglite-[\d.]+\.tar\.gz$/)]);
    expect(files.filter((f) => /\.(ts|mts|cts)$/.test(f))).toEqual([]);
    expect(existsSync(path.join(STAGE, "api"))).toBe(false);

    const migrate = await run(LAUNCHER, ["migrate"], env);
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stdout).toContain("migrations: up to date");
  }, 300_000);

  it("start serves from dist/: health, readiness, the healthcheck, an ingest by the bundled pools, secretlint, MCP over stdio, SIGTERM", async () => {
    const { org_id } = await admin("create-org", "--name", "Built");
    const { user_id } = await admin("create-user", "--email", "ops@built.test", "--password", "a long passphrase");
    await admin("add-member", "--org", org_id, "--user", user_id, "--role", "owner");
    const { api_key } = await admin("create-api-key", "--org", org_id, "--user", user_id);
    const { repo_id } = await admin("create-repo", "--org", org_id, "--name", "built");
    expect(await admin("grant", "--repo", repo_id, "--user", user_id, "--level", "write")).toMatchObject({ level: "write" });

    const server = await startBuilt(["start"], env);
    try {
      expect((await call(server.url, "GET", "/healthz")).status).toBe(200);
      expect(await call(server.url, "GET", "/readyz")).toMatchObject({ status: 200, body: { status: "ready", checks: { database: "ok" } } });
      const port = new URL(server.url).port;
      expect((await run(HEALTHCHECK, [port], env)).code).toBe(0);
      // Nothing listens on the port a worker would use here: the check fails, naming the port.
      const down = await run(HEALTHCHECK, ["1"], env);
      expect(down.code).toBe(1);
      expect(down.stderr).toContain("port 1");

      const { session, client: thread } = await registerThread(server.url, api_key, "built-thread-1");
      expect(await ingestArchive(thread, "built", await fixtureTar(FIXTURE_FILES))).toMatchObject({ status: "succeeded", result: { source: "upload", files: Object.keys(FIXTURE_FILES).length } });

      // A Linear API key: the regex table does not know the format, secretlint's preset does.
      const linear = ["lin_api_", "Zq8x".repeat(10)].join("");
      await thread.call("session_memory.upsert", {
        repo: repo_id,
        triples: [{ subject: "Deployer", predicate: "uses", object: "LinearClient" }],
        source: `ci env: LINEAR=${linear}`,
      });
      const read = JSON.stringify(await thread.call("session_memory.read", { repo: repo_id, limit: 100 }));
      expect(read).toContain("LinearClient");
      expect(read).not.toContain(linear);
      expect(server.output()).not.toContain(linear);

      const client = new Client({ name: "built-cli-test", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, "mcp"],
          env: { PATH: process.env.PATH ?? "", CODESYNAPSE_URL: server.url, CODESYNAPSE_API_KEY: api_key, CODESYNAPSE_SESSION_ID: session, CODESYNAPSE_PARENT_SESSION_ID: session },
          stderr: "pipe",
        }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["submit_ingest", "submit_ai_task"]));
      } finally {
        await client.close();
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 900_000); // seven process start-ups and an ingest on a loaded 2-core machine
});

const pgStatus = await probeService("postgres");

describeWithService(pgStatus, "the built CLI on PostgreSQL and Redis: serve and a separate worker process", () => {
  const database = `cs_built_${randomBytes(6).toString("hex")}`;
  let url = "";
  let redis: PrivateRedis | undefined;

  beforeAll(async () => {
    // A private redis-server: the queue names are the platform's, and on the shared one another suite's worker could take these messages.
    redis = await startPrivateRedis();
    const adminClient = new pg.Client({ connectionString: pgStatus.url });
    await adminClient.connect();
    await adminClient.query(`create database ${database}`);
    await adminClient.end();
    const u = new URL(pgStatus.url!);
    u.pathname = `/${database}`;
    url = u.toString();
  });
  afterAll(async () => {
    await redis?.stop();
    const adminClient = new pg.Client({ connectionString: pgStatus.url });
    await adminClient.connect();
    await adminClient.query(`drop database if exists ${database} with (force)`);
    await adminClient.end();
  });

  it("migrate, serve and worker --pools run from dist/; the worker process runs the ingest", async () => {
    // The API runs no pools: only the worker process can finish the job.
    const env = cleanEnv({ DATABASE_URL: url, REDIS_URL: redis!.url });
    const migrate = await run(CLI, ["migrate"], env);
    expect(migrate.code, migrate.stderr).toBe(0);

    const db = await openDatabase({ url });
    const account = await seedAccount(db.db, { repoLevel: "write" });
    await db.close();

    const api = await startBuilt(["serve"], env);
    // A free port for its metrics (a worker whose METRICS_PORT is taken refuses to start).
    const worker = await startBuilt(["worker", "--pools", "ingest,embedding"], { ...env, METRICS_PORT: "0" });
    try {
      expect(await call(api.url, "GET", "/readyz")).toMatchObject({ status: 200, body: { checks: { database: "ok", redis: "ok" } } });
      const { client: thread } = await registerThread(api.url, account.apiKey);
      expect(await ingestArchive(thread, account.repoName, await fixtureTar(FIXTURE_FILES))).toMatchObject({ status: "succeeded", result: { source: "upload" } });
      expect(worker.output()).toContain('"pools":["ingest","embedding"]');
    } finally {
      expect(await worker.stop()).toBe(0);
      expect(await api.stop()).toBe(0);
    }
  }, 600_000);
});

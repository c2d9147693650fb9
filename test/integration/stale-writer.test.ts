/**
 * A stale writer writes nothing anywhere (JOB-3, JOB-6; docs/jobs.md "Writes
 * are fenced"), with a real worker process running the real ingest kind, on
 * the real PostgreSQL server, for the repository store in PostgreSQL, Neo4j
 * and HugeGraph:
 *   1. worker A (a child process) claims an ingest job and is SIGSTOPped
 *      mid-run, past its lease;
 *   2. worker B reclaims the row and ingests the snapshot as it is now;
 *   3. the snapshot goes back to what A would have read, and A is SIGCONTed:
 *      it runs on, reads the old snapshot and computes the old graph — and
 *      must write none of it: its lease is gone, so its persist never runs.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildMemoryServices } from "../../main/memory";
import { systemClock } from "../../core/clock";
import { loadConfig } from "../../core/config";
import { silentLogger } from "../../core/log";
import type { MemoryServices } from "../../core/memory/services";
import { inTransaction } from "../../core/transaction";
import { fencedStores } from "../../workers/fenced-stores";
import { INGEST_KIND } from "../../core/jobs/ingest";
import { jobKindHandlers } from "../../workers/pools/kinds";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { writeFixtureRepo } from "../support/fixture-repo";
import { startTestHost } from "../support/job-host";
import { enqueueFor, jobRow, seedExecution, waitFor } from "../support/jobs";
import { describeWithService, probeService } from "../support/services";
import { identityStore } from "../../db/sql/identity/store";
import { relationalStores } from "../../db/stores";

const pgStatus = await probeService("postgres");
const neo4jStatus = await probeService("neo4j");
const hugegraphStatus = await probeService("hugegraph");
const LEASE_MS = 1500;

const snapshot = (fn: string) => ({ "src/app.ts": `export function ${fn}(a: number): number {\n  return a + 1;\n}\n`, "README.md": "# app\n" });

describeWithService(pgStatus, "a stale writer writes nothing [postgres]", () => {
  let database: TestDatabase;
  let schema: string;
  let root: string;
  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    schema = (await sql<{ s: string }>`select current_schema() as s`.execute(database.db)).rows[0]!.s;
    root = await mkdtemp(path.join(tmpdir(), "cs-stale-"));
  });
  afterAll(async () => {
    await database?.close();
    await rm(root, { recursive: true, force: true });
  });

  const stores = [
    { store: "postgres", available: true, env: { MEMORY_STORE: "postgres" } },
    {
      store: "neo4j",
      available: neo4jStatus.available,
      env: { MEMORY_STORE: "neo4j", NEO4J_URL: process.env.NEO4J_URL ?? "", NEO4J_USER: process.env.NEO4J_USER ?? "neo4j", NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? "" },
    },
    {
      store: "hugegraph",
      available: hugegraphStatus.available,
      env: { MEMORY_STORE: "hugegraph", HUGEGRAPH_URL: process.env.HUGEGRAPH_URL ?? "", HUGEGRAPH_GRAPH: process.env.HUGEGRAPH_GRAPH ?? "hugegraph" },
    },
  ];

  for (const s of stores) {
    it.runIf(s.available)(`[repository store ${s.store}] a worker stopped past its lease and resumed writes none of its results`, async () => {
      const db = database.db;
      const dir = path.join(root, s.store);
      await writeFixtureRepo(dir, snapshot("staleOnly"));
      const config = loadConfig({ ...s.env, INGEST_ALLOWED_ROOTS: root });
      const memory: MemoryServices = buildMemoryServices(config, db, systemClock, silentLogger());
      const e = await seedExecution(db, systemClock);
      const row = await enqueueFor(db, systemClock, e, { kind: INGEST_KIND, pool: "ingest", params: { path: dir } });
      let a: ChildProcess | undefined;
      try {
        // 1. Worker A claims it and is stopped mid-run.
        a = spawn(process.execPath, ["--import", "tsx", path.resolve("test/support/job-worker-child.ts")], {
          env: { ...process.env, ...s.env, CHILD_DATABASE_URL: pgStatus.url!, CHILD_SCHEMA: schema, CHILD_MODE: "ingest", CHILD_INGEST_ROOT: root, CHILD_LEASE_MS: String(LEASE_MS) },
          stdio: ["ignore", "pipe", "inherit"],
        });
        let out = "";
        a.stdout!.on("data", (d) => (out += String(d)));
        await waitFor(async () => out.includes(`STARTED ${row.id}`), 60_000, 20);
        a.kill("SIGSTOP");
        const claimedByA = await jobRow(db, row.id);
        expect(claimedByA).toMatchObject({ status: "running", attempts: 1 });

        // 2. Worker B reclaims it once the lease has run out and ingests the snapshot as it is now.
        await writeFixtureRepo(dir, snapshot("freshOnly"));
        const th = await startTestHost(database, jobKindHandlers({ config, stores: relationalStores(db), memory, queue: () => ({ db, identity: identityStore, clock: systemClock, registry: th.registry, dispatcher: th.dispatcher }) }), {
          pools: ["ingest"],
          leaseMs: LEASE_MS,
          stores: { repository: memory.repository.store },
        });
        try {
          const done = await waitFor(async () => {
            const r = await jobRow(db, row.id);
            return r.status === "succeeded" && r;
          }, 30_000);
          expect(done.attempts).toBe(2);
        } finally {
          await th.stop();
        }
        const store = memory.repository.store;
        expect((await store.searchNodes(e.account.repoId, ["freshonly"], 10)).map((n) => n.name)).toEqual(["src/app.ts#freshOnly"]);

        // 3. A resumes with the old snapshot to read, runs on, and must write nothing.
        await writeFixtureRepo(dir, snapshot("staleOnly"));
        a.kill("SIGCONT");
        await new Promise((r) => setTimeout(r, 4_000)); // its run finishes and its persist is refused
        expect(await store.searchNodes(e.account.repoId, ["staleonly"], 10)).toEqual([]);
        expect((await store.searchNodes(e.account.repoId, ["freshonly"], 10)).map((n) => n.name)).toEqual(["src/app.ts#freshOnly"]);
        expect(await jobRow(db, row.id)).toMatchObject({ status: "succeeded", attempts: 2 });
      } finally {
        a?.kill("SIGCONT");
        a?.kill("SIGKILL");
        memory.close();
      }
    }, 120_000);
  }

  it.runIf(neo4jStatus.available)("[repository store neo4j] a write whose fenced transaction was killed never reaches the store", async () => {
    const config = loadConfig({ ...stores[1]!.env });
    const memory: MemoryServices = buildMemoryServices(config, database.db, systemClock, silentLogger());
    const e = await seedExecution(database.db, systemClock);
    const store = memory.repository.store;
    try {
      await expect(
        inTransaction(database.db, async (tx) => {
          const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx)).rows[0]!.pid;
          const admin = await openTestDatabase("postgres");
          try {
            await sql`select pg_terminate_backend(${pid})`.execute(admin.db);
          } finally {
            await admin.close();
          }
          const fenced = fencedStores({ repository: store }, tx).repository!;
          const node = { id: "n-killed-tx", name: "killedTxOnly", type: "function" };
          await fenced.upsertFacts(e.account.repoId, [{ fact_id: "f-killed-tx", subject: node, predicate: "calls", object: node }], { session_id: e.identity.session_id }, Date.now());
        }),
      ).rejects.toThrow();
      expect(await store.searchNodes(e.account.repoId, ["killedtxonly"], 10)).toEqual([]);
    } finally {
      memory.close();
    }
  });
});


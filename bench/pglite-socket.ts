/**
 * The embedded database off the event loop, an experiment (`npx tsx bench/pglite-socket.ts`).
 *
 * Today the embedded default runs PGlite in the server's own thread (db/database.ts with no url):
 * every statement's WASM execution blocks the event loop, and a turn is given between statements
 * once TURN_MS of work went by (core/turn.ts). The alternative measured here: PGlite in a worker
 * thread (node:worker_threads), served over the PostgreSQL wire protocol by
 * `@electric-sql/pglite-socket` on a unix socket, and the server's own `pg` driver path
 * (openDatabase with the socket's url) connecting to it: one driver path, no pacing.
 *
 * First, what the socket server does with several connections (one server): concurrent
 * extended-protocol statements, a large statement on one connection while another sends small
 * ones, errors on one while another works, transactions on two, the same named prepared statement
 * on two, session state across connections, LISTEN on one and NOTIFY from another.
 *
 * Then three set-ups in turn, BENCH_ROUNDS rounds (default 2), each measure on a fresh data
 * directory: PGlite in-process (today); PGlite in a worker + socket, openDatabase with the url as
 * it is; the same with the pools' listener taking notifications from whichever connection received
 * them (the checks show why; what adopting the socket would need). The socket set-ups' pool is
 * BENCH_SOCKET_POOL connections (default 1: with more, the checks' failures reach the server's own
 * statements) plus the listener's.
 *
 * - Stall: while a statement load runs (BENCH_LOAD_ROUNDS rounds, default 6, of: one transaction
 *   of 1,000 single-row inserts, like an ingest's persist; 2,000 rows in inserts of 500 rows; an
 *   update of those 2,000 rows), two probers send `GET /healthz` (no database) and `GET /read`
 *   (one primary-key read) to an HTTP server in this process every PROBE_MS (20), and
 *   perf_hooks.monitorEventLoopDelay records the event-loop delay: p50/p99/max of each, and the
 *   load's own duration.
 * - Jobs: CodeSynapse's PostgreSQL-dispatch system as bench/jobs.ts builds it (every check on):
 *   BENCH_JOBS no-op jobs (1,000) from 16 submitters into a pool of 8 → jobs/s; then
 *   BENCH_LATENCY_JOBS (100) one at a time, submit → recorded completion, twice: each submitted
 *   as the previous one's outcome is recorded (bench/jobs.ts's measure: the pool is still awake),
 *   and each after 50 ms of quiet (the pool sleeps: only its NOTIFY wake-up, or its 1 s poll,
 *   brings the job); and the wake-ups the listener received.
 *
 * Prints each run, then each figure's median over the rounds side by side with its ratio to
 * in-process. The package is not a dependency: install it anywhere (`npm install --prefix DIR
 * @electric-sql/pglite-socket`) and set BENCH_PGLITE_SOCKET=DIR, or have it resolvable from
 * here; without it the bench says so and exits 0. The package imports nothing from PGlite: the
 * worker hands it this checkout's PGlite, opened by db/pglite.ts as the server opens it.
 */
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { z } from "zod";
import { addMember, createOrg, createRepo, createUser, grantRepo } from "../core/accounts/accounts";
import { createApiKey } from "../core/accounts/api-keys";
import type { Principal } from "../core/authorize";
import { systemClock } from "../core/clock";
import { makeIdentity } from "../core/execution/identity";
import { silentLogger } from "../core/log";
import { registerSession } from "../core/registry/registry";
import { migrateToLatest, openDatabase, type OpenDatabase } from "../db/database";
import { openPGlite } from "../db/pglite";
import { identityStore } from "../db/sql/identity/store";
import { Outcomes } from "./outcomes";
import { JobRegistry } from "../queues/registry";
import { createJobQueue } from "../queues/service";
import { submitJob } from "../queues/submit";
import { defineHandler, type JobHandler } from "../workers/handler";
import { startWorkers } from "../workers/host";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const LOAD_ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? 6);
const PROBE_MS = Number(process.env.BENCH_PROBE_MS ?? 20);
const JOBS = Number(process.env.BENCH_JOBS ?? 1000);
const LATENCY_JOBS = Number(process.env.BENCH_LATENCY_JOBS ?? 100);
const IDLE_MS = 50;
const CONCURRENCY = 8;
const SUBMITTERS = 16;
const SOCKET_POOL = Number(process.env.BENCH_SOCKET_POOL ?? 1);

interface ServeData {
  module: string;
  dataDir: string;
  socketPath: string;
  maxConnections: number;
}

interface SocketServer {
  start(): Promise<void>;
  stop(): Promise<void>;
}
type SocketServerClass = new (o: { db: unknown; path: string; maxConnections: number }) => SocketServer;

/** The worker thread: this checkout's PGlite on `dataDir`, served on a unix socket until told to stop. */
async function serve(d: ServeData): Promise<void> {
  const { PGLiteSocketServer } = (await import(d.module)) as { PGLiteSocketServer: SocketServerClass };
  const pglite = await openPGlite(d.dataDir);
  const server = new PGLiteSocketServer({ db: pglite, path: d.socketPath, maxConnections: d.maxConnections });
  await server.start();
  parentPort!.on("message", (m) => {
    if (m !== "stop") return;
    void (async () => {
      await server.stop();
      await pglite.close();
      parentPort!.postMessage("stopped");
    })();
  });
  parentPort!.postMessage("ready");
}

/** The socket package's entry point, or undefined when it is not installed. */
function socketModule(): string | undefined {
  const from = process.env.BENCH_PGLITE_SOCKET ? path.resolve(process.env.BENCH_PGLITE_SOCKET, "package.json") : import.meta.filename;
  try {
    return createRequire(from).resolve("@electric-sql/pglite-socket");
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The two set-ups

interface Opened {
  database: OpenDatabase;
  /** A raw pg connection string (socket set-up only). */
  url?: string;
  close(): Promise<void>;
}

interface Setup {
  name: string;
  open(): Promise<Opened>;
}

const inProcess: Setup = {
  name: "PGlite in-process",
  async open() {
    const dataDir = await mkdtemp(path.join(tmpdir(), "cs-pgs-in-"));
    const database = await openDatabase({ dataDir });
    return {
      database,
      async close() {
        await database.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  },
};

/**
 * Every NOTIFY any `pg` client of this process receives. Behind pglite-socket all connections share
 * PGlite's one session, and a notification comes back on the connection whose statement sent it
 * (the checks show it), never on the listening one: the routed set-up's listen takes them from here.
 */
const notifications = new EventEmitter();
{
  const proto = pg.Client.prototype as unknown as { emit: (event: string | symbol, ...args: unknown[]) => boolean };
  const emit = proto.emit;
  proto.emit = function (this: unknown, event: string | symbol, ...args: unknown[]) {
    if (event === "notification") notifications.emit("notification", args[0]);
    return emit.call(this, event, ...args);
  };
}

/** LISTEN on the shared session once, then take the channel's notifications from whichever connection got them. */
function routedListen(url: string): NonNullable<OpenDatabase["listen"]> {
  return async (channel, onPayload) => {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => undefined);
    await client.connect();
    await client.query(`LISTEN ${channel}`);
    const on = (n: pg.Notification) => n.channel === channel && onPayload(n.payload ?? "");
    notifications.on("notification", on);
    return async () => {
      notifications.off("notification", on);
      await client.end().catch(() => undefined);
    };
  };
}

/**
 * PGlite in a worker thread behind pglite-socket; the server's `pg` path over a unix socket
 * (openDatabase with the socket's url). `routed`: its listen is {@link routedListen}.
 */
function inWorker(module: string, poolSize: number, routed = false): Setup {
  return {
    name: routed ? "worker + socket, NOTIFY routed" : "PGlite worker + socket",
    async open() {
      const dataDir = await mkdtemp(path.join(tmpdir(), "cs-pgs-data-"));
      const sockDir = await mkdtemp(path.join(tmpdir(), "cs-pgs-sock-"));
      const data: ServeData = { module, dataDir, socketPath: path.join(sockDir, ".s.PGSQL.5432"), maxConnections: poolSize + 8 };
      const worker = new Worker(new URL(import.meta.url), { workerData: data });
      const said = (what: string) =>
        new Promise<void>((resolve, reject) => {
          const onMessage = (m: unknown) => m === what && (worker.off("message", onMessage), resolve());
          worker.on("message", onMessage);
          worker.once("error", reject);
        });
      await said("ready");
      const url = `postgres://postgres:postgres@/postgres?host=${encodeURIComponent(sockDir)}`;
      const opened = await openDatabase({ url, poolSize });
      const database: OpenDatabase = routed ? { ...opened, listen: routedListen(url) } : opened;
      return {
        database,
        url,
        async close() {
          await database.close();
          const stopped = said("stopped");
          worker.postMessage("stop");
          await stopped;
          await worker.terminate();
          await rm(dataDir, { recursive: true, force: true });
          await rm(sockDir, { recursive: true, force: true });
        },
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// 1. What the socket server does with several connections

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function checks(url: string): Promise<Array<{ check: string; result: string }>> {
  const out: Array<{ check: string; result: string }> = [];
  const client = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on("error", () => undefined);
    await c.connect();
    return c;
  };
  const [a, b, c, d] = [await client(), await client(), await client(), await client()];
  try {
    // Extended-protocol queries (Parse/Bind/Execute/Sync, unnamed statement) from four connections
    // at once, each connection its own text: a Bind landing on another connection's Parse shows.
    let wrong = 0;
    let failed = 0;
    const firstError: string[] = [];
    await Promise.all(
      [a, b, c, d].map(async (cl, k) => {
        for (let i = 0; i < 100; i++) {
          const want = k * 1000 + i;
          try {
            const r = await cl.query<{ v: number; k: number }>(`select $1::int as v, ${k}::int as k`, [want]);
            if (r.rows[0]?.v !== want || r.rows[0]?.k !== k) wrong++;
          } catch (err) {
            failed++;
            if (firstError.length === 0) firstError.push((err as Error).message);
          }
        }
      }),
    );
    out.push({ check: "4 connections × 100 parameterised selects at once", result: `${400 - wrong - failed} right, ${wrong} wrong answers, ${failed} errors${firstError[0] ? ` (${firstError[0]})` : ""}` });

    // The same with one connection's statement large enough to arrive in several socket reads (a
    // 2,000-parameter insert of 800 kB, as a bulk insert sends) while another sends small ones.
    await a.query("create table bench_wide (v text)");
    const wide = `insert into bench_wide values ${Array.from({ length: 2000 }, (_, i) => `($${i + 1})`).join(", ")}`;
    const values = Array.from({ length: 2000 }, (_, i) => `value ${i} ${"x".repeat(400)}`);
    const wideSeen = { wideErrors: 0, smallErrors: 0, smallWrong: 0, first: "" };
    let stop = false;
    await Promise.all([
      (async () => {
        for (let i = 0; i < 20; i++) {
          await a.query(wide, values).catch((err: Error) => (wideSeen.wideErrors++, (wideSeen.first ||= err.message)));
        }
        stop = true;
      })(),
      (async () => {
        for (let i = 0; !stop; i++) {
          const r = await b.query<{ v: number }>("select $1::int as v", [i]).catch((err: Error) => (wideSeen.smallErrors++, (wideSeen.first ||= err.message), undefined));
          if (r && r.rows[0]?.v !== i) wideSeen.smallWrong++;
        }
      })(),
    ]);
    out.push({
      check: "20 inserts of 2,000 parameters (800 kB) on A while B runs small selects",
      result: `A: ${wideSeen.wideErrors} of 20 failed; B: ${wideSeen.smallErrors} failed, ${wideSeen.smallWrong} wrong${wideSeen.first ? ` (${wideSeen.first})` : ""}`,
    });

    // Errors on one connection while another works: after an error PostgreSQL skips messages up to
    // the next Sync, and both connections' messages go to the one session.
    let errors = 0;
    let good = 0;
    await Promise.all([
      (async () => {
        for (let i = 0; i < 100; i++) await a.query("select 1 / $1::int as v", [0]).catch(() => errors++);
      })(),
      (async () => {
        for (let i = 0; i < 100; i++) {
          const r = await b.query<{ v: number }>("select $1::int + 1 as v", [i]).catch(() => undefined);
          if (r?.rows[0]?.v === i + 1) good++;
        }
      })(),
    ]);
    out.push({ check: "100 failing statements on A while B runs 100", result: `A: ${errors} errors (100 expected); B: ${good} of 100 right` });

    // Transactions on two connections at once: each must see its own rows and only them.
    await a.query("create table bench_tx (k int, i int)");
    let mixed = 0;
    await Promise.all(
      [a, b].map(async (cl, k) => {
        for (let t = 0; t < 20; t++) {
          await cl.query("begin");
          for (let i = 0; i < 5; i++) await cl.query("insert into bench_tx values ($1, $2)", [k, i]);
          const r = await cl.query<{ n: string }>("select count(*) as n from bench_tx where k <> $1", [k]);
          await cl.query("rollback");
          if (Number(r.rows[0]?.n) !== 0) mixed++;
        }
      }),
    );
    out.push({ check: "20 transactions on each of two connections at once", result: mixed === 0 ? "isolated (the second waits for the first to end)" : `${mixed} saw the other's rows` });

    // A named prepared statement: pg prepares it once per connection.
    await a.query({ name: "bench_same", text: "select 1 as v" });
    const second = await b.query({ name: "bench_same", text: "select 1 as v" }).then(
      () => "ok",
      (err: Error) => `fails: ${err.message}`,
    );
    out.push({ check: "the same named prepared statement on a second connection", result: second });

    // Session state.
    await a.query("set application_name = 'bench_a'");
    const seen = (await b.query<{ application_name: string }>("show application_name")).rows[0]?.application_name;
    out.push({ check: "SET on one connection, SHOW on another", result: seen === "bench_a" ? "shared: one session for all connections" : `separate (${seen})` });

    // LISTEN on a, NOTIFY from b.
    const got = { a: 0, b: 0 };
    a.on("notification", () => got.a++);
    b.on("notification", () => got.b++);
    await a.query("listen bench_channel");
    await b.query("select pg_notify('bench_channel', 'x')");
    await sleep(500);
    const idle = { ...got };
    // A statement on the listening connection afterwards.
    await a.query("select 1");
    await sleep(100);
    out.push({
      check: "LISTEN on A, NOTIFY from B",
      result: `A received ${idle.a} within 500 ms (${got.a} after its next statement); B, the notifier, received ${idle.b}`,
    });
    return out;
  } finally {
    await Promise.all([a, b, c, d].map((cl) => cl.end().catch(() => undefined)));
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Stall: requests and event-loop delay under a statement load

interface Stat {
  p50: number;
  p99: number;
  max: number;
}

function stat(samples: number[]): Stat {
  const s = [...samples].sort((x, y) => x - y);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: s.at(-1) ?? 0 };
}

interface StallResult {
  loadMs: number;
  statements: number;
  health: Stat;
  read: Stat;
  loop: Stat;
  failed: number;
}

async function prepareLoad(db: Kysely<any>): Promise<void> {
  await sql`create table bench_load (id bigserial primary key, repo text not null, path text not null, body text not null, n int not null default 0)`.execute(db);
  await sql`create index bench_load_repo_path on bench_load (repo, path)`.execute(db);
  await sql`insert into bench_load (repo, path, body) select 'seed', 'f' || g, repeat('x', 400) from generate_series(1, 1000) g`.execute(db);
}

/** The statement load: returns the statements sent. */
async function runLoad(db: Kysely<any>): Promise<number> {
  const body = "y".repeat(400);
  let statements = 0;
  for (let r = 0; r < LOAD_ROUNDS; r++) {
    const repo = `r${r}`;
    // An ingest's persist: one transaction of many small statements.
    await db.transaction().execute(async (tx) => {
      for (let i = 0; i < 1000; i++) {
        await tx.insertInto("bench_load").values({ repo, path: `p${i}`, body }).execute();
      }
    });
    statements += 1002;
    // A bulk insert: one statement of 2,000 rows (in chunks: PostgreSQL's 65,535-parameter cap).
    for (let i = 0; i < 2000; i += 500) {
      await db
        .insertInto("bench_load")
        .values(Array.from({ length: 500 }, (_, j) => ({ repo: `${repo}b`, path: `q${i + j}`, body })))
        .execute();
      statements++;
    }
    await sql`update bench_load set n = n + 1, body = body || 'z' where repo = ${`${repo}b`}`.execute(db);
    statements++;
  }
  return statements;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  if (!addr || typeof addr !== "object") throw new Error("no address");
  return `http://127.0.0.1:${addr.port}`;
}

async function stall(database: OpenDatabase): Promise<StallResult> {
  const db = database.db as Kysely<any>;
  await prepareLoad(db);
  const server = createServer((req, res) => {
    if (req.url === "/healthz") return void res.end("ok");
    db.selectFrom("bench_load")
      .select(["id", "path"])
      .where("id", "=", 1 + Math.floor(Math.random() * 1000))
      .executeTakeFirst()
      .then(
        (row) => res.end(JSON.stringify(row ?? null)),
        () => ((res.statusCode = 500), res.end()),
      );
  });
  const base = await listen(server);
  const agent = { keepalive: true } as const;
  const health: number[] = [];
  const reads: number[] = [];
  let failed = 0;
  const timed = async (url: string, into: number[]) => {
    const s = performance.now();
    try {
      const r = await fetch(url, agent);
      await r.text();
      if (!r.ok) failed++;
    } catch {
      failed++;
    } finally {
      into.push(performance.now() - s);
    }
  };
  // Warm the connections and the plan.
  for (let i = 0; i < 5; i++) await Promise.all([timed(`${base}/healthz`, []), timed(`${base}/read`, [])]);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  let done = false;
  // Two probers, each on its own: a read waiting behind a transaction does not hold back the health probe.
  const probe = async (url: string, into: number[]) => {
    while (!done) await Promise.all([timed(url, into), sleep(PROBE_MS)]);
  };
  const probers = Promise.all([probe(`${base}/healthz`, health), probe(`${base}/read`, reads)]);
  loop.enable();
  const t0 = performance.now();
  const statements = await runLoad(db);
  const loadMs = performance.now() - t0;
  done = true;
  await probers;
  loop.disable();
  await new Promise((r) => server.close(r));
  const ms = (ns: number) => ns / 1e6;
  return {
    loadMs,
    statements,
    health: stat(health),
    read: stat(reads),
    loop: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
    failed,
  };
}

// ---------------------------------------------------------------------------------------------
// 3. Jobs: CodeSynapse's PostgreSQL dispatch, as bench/jobs.ts builds it


interface JobsResult {
  jobsPerSecond: number;
  /** Each job submitted as the previous one's outcome is recorded (bench/jobs.ts's measure). */
  latency: Stat;
  /** Each job submitted after IDLE_MS of quiet: the pool sleeps, and only its wake-up (or its poll) brings the job. */
  idleLatency: Stat;
  /** NOTIFY wake-ups the pools' listener received (a lost one leaves the pool to its poll timer). */
  wakes: number;
}

async function parallel(n: number, width: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await fn(next++);
  }));
}

async function jobs(database: OpenDatabase): Promise<JobsResult> {
  const db = database.db;
  const clock = systemClock;
  const tag = randomBytes(4).toString("hex");
  const store = identityStore(db);
  const { org_id: orgId } = await createOrg(store, { name: "bench" });
  const { user_id: userId } = await createUser(store, { email: `bench-${tag}@example.test` });
  await addMember(store, { orgId, userId, role: "member" });
  const key = await createApiKey(store, { orgId, userId });
  const { repo_id: repoId } = await createRepo(store, { orgId, name: "bench-repo" });
  await grantRepo(store, { repoId, userId, level: "read" });
  const principal: Principal = { orgId, userId, apiKeyId: key.key_id, loginSessionId: null };
  await registerSession(store, clock, principal, `bench-${tag}`);
  const identity = makeIdentity({ tenant_id: orgId, subject_id: userId, session_id: `bench-${tag}`, parent_session_id: `bench-${tag}` });
  const registry = new JobRegistry<JobHandler>().register(
    defineHandler({ kind: "bench.noop", pool: "ai", restartable: true, maxAttempts: 3, repoLevel: "read", params: z.strictObject({ i: z.number() }), run: async () => ({ result: null }) }),
  );
  const { queue } = createJobQueue({ db, identity: identityStore, clock, logger: silentLogger(), registry });
  const metrics = new Outcomes();
  let wakes = 0;
  const listen = database.listen;
  const counted: OpenDatabase["listen"] = listen && ((channel, onPayload, onReconnect) => listen(channel, (p) => (wakes++, onPayload(p)), onReconnect));
  const host = await startWorkers({
    db, identity: identityStore, clock, logger: silentLogger(), registry, dispatcher: queue.dispatcher, metrics, pools: ["ai"], concurrency: { ai: CONCURRENCY },
    ...(counted ? { listen: counted } : {}),
  });
  try {
    await sleep(300);
    const submit = (i: number) => submitJob(queue, identity, principal, { kind: "bench.noop", params: { i }, repo: repoId });
    const t0 = performance.now();
    await parallel(JOBS, SUBMITTERS, submit);
    const deadline = Date.now() + 300_000;
    while (metrics.succeeded < JOBS) {
      if (Date.now() > deadline) throw new Error(`${metrics.succeeded} of ${JOBS} jobs done after 5 minutes`);
      await sleep(5);
    }
    const jobsPerSecond = JOBS / ((performance.now() - t0) / 1000);
    const one = async (i: number) => {
      const done = metrics.nextSucceeded();
      await submit(i);
      await done;
    };
    for (let i = 0; i < 10; i++) await one(-1 - i);
    const ms: number[] = [];
    for (let i = 0; i < LATENCY_JOBS; i++) {
      const t = performance.now();
      await one(i);
      ms.push(performance.now() - t);
    }
    const idle: number[] = [];
    for (let i = 0; i < LATENCY_JOBS; i++) {
      await sleep(IDLE_MS);
      const t = performance.now();
      await one(i);
      idle.push(performance.now() - t);
    }
    return { jobsPerSecond, latency: stat(ms), idleLatency: stat(idle), wakes };
  } finally {
    await host.stop();
    await queue.dispatcher.close();
  }
}

// ---------------------------------------------------------------------------------------------

interface Run {
  setup: string;
  stall: StallResult | { error: string };
  jobs: JobsResult | { error: string };
}

async function measure(setup: Setup): Promise<Run> {
  // Stall and jobs each on a fresh database, so neither inherits the other's rows.
  const s = await setup.open();
  let stallResult: StallResult | { error: string };
  try {
    await migrateToLatest(s.database.db);
    stallResult = await stall(s.database);
  } catch (err) {
    stallResult = { error: (err as Error).message };
  } finally {
    await s.close();
  }
  const j = await setup.open();
  try {
    await migrateToLatest(j.database.db);
    return { setup: setup.name, stall: stallResult, jobs: await jobs(j.database) };
  } catch (err) {
    return { setup: setup.name, stall: stallResult, jobs: { error: (err as Error).message } };
  } finally {
    await j.close();
  }
}

const f1 = (v: number) => v.toFixed(1);

/** The figures of one run, by row of the side-by-side table. */
function figures(r: Run): Array<[string, number | undefined]> {
  const out: Array<[string, number | undefined]> = [];
  const s = "error" in r.stall ? undefined : r.stall;
  const st = (label: string, x: Stat | undefined) => out.push([`${label} p50 (ms)`, x?.p50], [`${label} p99 (ms)`, x?.p99], [`${label} max (ms)`, x?.max]);
  st("event-loop delay", s?.loop);
  st("GET /healthz", s?.health);
  st("GET /read", s?.read);
  out.push(["statement load (ms)", s?.loadMs]);
  const j = "error" in r.jobs ? undefined : r.jobs;
  out.push(
    ["no-op jobs/s", j?.jobsPerSecond],
    ["one job back-to-back p50 (ms)", j?.latency.p50],
    ["one job back-to-back p99 (ms)", j?.latency.p99],
    [`one job after ${IDLE_MS} ms idle p50 (ms)`, j?.idleLatency.p50],
    [`one job after ${IDLE_MS} ms idle p99 (ms)`, j?.idleLatency.p99],
    ["NOTIFY wake-ups received", j?.wakes],
  );
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? undefined : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Each figure's median over the rounds, per set-up, and each set-up's ratio to the first (in-process). */
function table(setups: readonly Setup[], runs: Run[]): void {
  const per = setups.map((su) => runs.filter((r) => r.setup === su.name).map(figures));
  if (!per[0]?.[0]) return;
  const labels = per[0]![0]!.map(([what]) => what);
  console.log(`\n## medians over the rounds; ratio = set-up ÷ ${setups[0]!.name} (below 1: lower)`);
  console.table(
    labels.map((what, k) => {
      const m = per.map((rs) => median(rs.map((f) => f[k]![1]).filter((v): v is number => v !== undefined)));
      const row: Record<string, string | number> = { what };
      setups.forEach((su, i) => {
        row[su.name] = m[i] === undefined ? "-" : f1(m[i]);
        if (i > 0) row[`ratio ${i}`] = m[i] !== undefined && m[0] ? +(m[i] / m[0]).toFixed(2) : "-";
      });
      return row;
    }),
  );
  for (const r of runs) {
    if ("error" in r.stall) console.log(`${r.setup}: the statement load failed: ${r.stall.error}`);
    if ("error" in r.jobs) console.log(`${r.setup}: the job system failed: ${r.jobs.error}`);
  }
}

function printRun(r: Run): void {
  const j = "error" in r.jobs ? `jobs failed: ${r.jobs.error}` : `${f1(r.jobs.jobsPerSecond)} jobs/s, one job p50/p99 ${f1(r.jobs.latency.p50)}/${f1(r.jobs.latency.p99)} ms back-to-back, ${f1(r.jobs.idleLatency.p50)}/${f1(r.jobs.idleLatency.p99)} ms after idle, ${r.jobs.wakes} NOTIFY wake-ups received`;
  const s = r.stall;
  const three = (x: Stat) => `${f1(x.p50)}/${f1(x.p99)}/${f1(x.max)}`;
  const load =
    "error" in s
      ? `statement load failed: ${s.error}`
      : `load ${Math.round(s.loadMs)} ms (${s.statements} statements); loop p50/p99/max ${three(s.loop)} ms; healthz ${three(s.health)}; read ${three(s.read)}; ${s.failed} probes failed`;
  console.log(`${r.setup}: ${load}; ${j}`);
}

async function main(): Promise<void> {
  const module = socketModule();
  if (!module) {
    console.log("bench/pglite-socket: skipped, @electric-sql/pglite-socket is not installed (set BENCH_PGLITE_SOCKET to the prefix it was installed under)");
    return;
  }
  const setups = [inProcess, inWorker(module, SOCKET_POOL), inWorker(module, SOCKET_POOL, true)];
  const probe = await setups[1]!.open();
  try {
    console.log("## PGlite behind pglite-socket: several connections (one server, its own data directory)");
    console.table(await checks(probe.url!));
  } finally {
    await probe.close();
  }
  console.log(
    `\n## ${ROUNDS} rounds, the set-ups in turn; statement load ${LOAD_ROUNDS} rounds, probes every ${PROBE_MS} ms; ` +
      `${JOBS} jobs, ${LATENCY_JOBS} one at a time each way; socket pool ${SOCKET_POOL} + listener; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`,
  );
  const runs: Run[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    for (const setup of setups) {
      const r = await measure(setup);
      printRun(r);
      runs.push(r);
    }
  }
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  table(setups, runs);
}

if (!isMainThread) await serve(workerData as ServeData);
else if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
  process.exit(0);
}

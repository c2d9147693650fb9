/**
 * Benchmark: the session registry at 10,000 organisations × 1,024 active
 * bindings (10,240,000 rows) against a near-empty registry, on the PostgreSQL server.
 *
 * Runs in a database of its own (`cs_bench_registry_<random>`), created on the server of
 * TEST_DATABASE_URL / DATABASE_URL and dropped at the end. Phases, each timed and printed:
 *   1. empty registry: resolution throughput (GET /api/v1/execution/identity, the API key
 *      path, 16 connections, over the probe user's 1,024 sessions) and random primary-key
 *      lookups of bindings (16 concurrent); the cleanup sweep's batch time (expire 500 due
 *      bindings; read 100 pending cleanups and mark them done) over 2,000 due bindings;
 *   2. seeding with COPY (pg-copy-streams): organisations, users, bindings — with the
 *      table's foreign keys and secondary indexes dropped during the load and recreated
 *      from their own definitions afterwards (the standard bulk-load order), then ANALYZE;
 *   3. the same measurements at scale, and EXPLAIN (ANALYZE, BUFFERS) of the resolution,
 *      the expiry batch and the pending-cleanup read (docs/scaling.md quotes them).
 * Env: BENCH_SECONDS (5), REGISTRY_ORGS (10000), REGISTRY_PER_ORG (1024). Smaller values
 * are printed in the header; the numbers in docs/scaling.md are for the full size.
 * Run: npm run bench -- registry-scale   (or: npx tsx bench/registry-scale.ts)
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import autocannon from "autocannon";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { sql } from "kysely";
import { createApp } from "../api/app";
import { systemClock } from "../core/clock";
import { loadConfig } from "../core/config";
import { silentLogger } from "../core/log";
import { BINDING_TTL_MS } from "../core/limits";
import { expireDueBindings, registerSession } from "../core/registry/registry";
import { markCleanupDone } from "../db/sql/sessions/markCleanupDone";
import { pendingCleanups } from "../db/sql/sessions/pendingCleanups";
import { relationalStores } from "../db/stores";
import { migrateToLatest, openDatabase, type OpenDatabase } from "../db/database";
import { identityStore } from "../db/sql/identity/store";
import { seedAccount, type Account } from "../test/support/fixtures";
import { listen } from "../test/support/http";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ORGS = Number(process.env.REGISTRY_ORGS ?? 10_000);
const PER_ORG = Number(process.env.REGISTRY_PER_ORG ?? 1024);
const CONNECTIONS = 16;
const DUE = 2000;

interface Measure {
  identityRps: number;
  lookupsPerS: number;
  expireBatchMs: number[];
  cleanupBatchMs: number[];
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function line(...cols: Array<string | number | null>): string {
  return cols.map((c) => (c === null ? "\\N" : String(c))).join("\t") + "\n";
}

async function copyRows(client: pg.PoolClient, statement: string, rows: Iterable<string>): Promise<void> {
  await pipeline(Readable.from(rows, { objectMode: false, highWaterMark: 1 << 16 }), client.query(copyFrom(statement)));
}

/** Registers the probe user's sessions (its org is full: 1,024 active) and returns their ids. */
async function probeSessions(d: OpenDatabase, a: Account): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < PER_ORG; i++) {
    const id = `probe-${i}-${randomBytes(4).toString("hex")}`;
    await registerSession(identityStore(d.db), systemClock, { orgId: a.orgId, userId: a.userId, apiKeyId: a.keyId, loginSessionId: null }, id);
    ids.push(id);
  }
  return ids;
}

/** Inserts `n` bindings already past their deadline (not yet tombstoned) in one org of their own. */
async function seedDue(d: OpenDatabase, n: number): Promise<void> {
  const a = await seedAccount(d.db);
  const past = new Date(Date.now() - 60_000);
  await sql`insert into session_bindings (session_id, org_id, user_id, kind, created_at, expires_at)
            select 'due-' || ${randomBytes(4).toString("hex")} || '-' || g, ${a.orgId}, ${a.userId}, 'runtime', ${new Date(past.getTime() - BINDING_TTL_MS)}, ${past}
            from generate_series(1, ${n}) g`.execute(d.db);
}

async function measure(d: OpenDatabase, a: Account, sessions: string[], sampleIds: () => string): Promise<Measure> {
  const srv = await listen(createApp({ db: d.db, stores: relationalStores(d.db), identity: identityStore(d.db), clock: systemClock, config: loadConfig({}), logger: silentLogger() }));
  let identityRps: number;
  try {
    let k = 0;
    const run = () =>
      autocannon({
        url: `${srv.url}/api/v1/execution/identity`,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers: { authorization: `Bearer ${a.apiKey}` },
        requests: [
          {
            setupRequest: (req) => {
              const s = sessions[k++ % sessions.length]!;
              req.headers = { ...req.headers, "x-codesynapse-session": s, "x-codesynapse-parent-session": s };
              return req;
            },
          },
        ],
      });
    await run(); // warm-up
    const r = await run();
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`identity: ${r.non2xx} non-2xx, ${r.errors} errors`);
    identityRps = r.requests.average;
  } finally {
    await srv.close();
  }
  // Random primary-key lookups of bindings (the resolution's binding read), 16 at a time.
  let lookups = 0;
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        await d.db.selectFrom("session_bindings").select(["org_id", "user_id", "expires_at", "tombstoned_at"]).where("session_id", "=", sampleIds()).executeTakeFirst();
        lookups++;
      }
    }),
  );
  await seedDue(d, DUE);
  const expireBatchMs: number[] = [];
  for (;;) {
    const t0 = process.hrtime.bigint();
    const n = await expireDueBindings(identityStore(d.db), systemClock, 500);
    if (n === 0) break;
    expireBatchMs.push(ms(t0));
  }
  const cleanupBatchMs: number[] = [];
  for (;;) {
    const t0 = process.hrtime.bigint();
    const targets = await pendingCleanups(d.db, 100);
    if (targets.length === 0) break;
    await d.db.transaction().execute((tx) => markCleanupDone(tx, targets, new Date()));
    cleanupBatchMs.push(ms(t0));
  }
  return { identityRps, lookupsPerS: lookups / SECONDS, expireBatchMs, cleanupBatchMs };
}

async function seedScale(d: OpenDatabase, pool: pg.Pool): Promise<Record<string, number>> {
  const t: Record<string, number> = {};
  const c = await pool.connect();
  try {
    await c.query("set maintenance_work_mem = '1GB'");
    const idx = await c.query<{ name: string; def: string }>(
      "select indexname as name, indexdef as def from pg_indexes where schemaname = current_schema() and tablename = 'session_bindings' and indexname <> 'session_bindings_pkey'",
    );
    const fks = await c.query<{ name: string; def: string }>(
      "select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'session_bindings'::regclass and contype = 'f'",
    );
    for (const f of fks.rows) await c.query(`alter table session_bindings drop constraint ${f.name}`);
    for (const i of idx.rows) await c.query(`drop index ${i.name}`);
    const now = new Date();
    const iso = now.toISOString();
    let t0 = process.hrtime.bigint();
    await copyRows(c, "copy organizations (id, name) from stdin", (function* () {
      for (let o = 0; o < ORGS; o++) yield line(`bo_${o}`, `bench-org-${o}`);
    })());
    await copyRows(c, "copy users (id, email) from stdin", (function* () {
      for (let o = 0; o < ORGS; o++) yield line(`bu_${o}`, `bu${o}@bench.test`);
    })());
    await copyRows(c, "copy memberships (org_id, user_id, role) from stdin", (function* () {
      for (let o = 0; o < ORGS; o++) yield line(`bo_${o}`, `bu_${o}`, "member");
    })());
    t.accounts_s = ms(t0) / 1000;
    t0 = process.hrtime.bigint();
    // Deadlines spread over the 7 days ahead: every row active.
    await copyRows(c, "copy session_bindings (session_id, org_id, user_id, kind, created_at, expires_at) from stdin", (function* () {
      for (let o = 0; o < ORGS; o++) {
        for (let j = 0; j < PER_ORG; j++) {
          const exp = new Date(now.getTime() + 60_000 + ((o * PER_ORG + j) % 604_000) * 1000).toISOString();
          yield line(`s${o}-${j}`, `bo_${o}`, `bu_${o}`, "runtime", iso, exp);
        }
      }
    })());
    t.copy_bindings_s = ms(t0) / 1000;
    t0 = process.hrtime.bigint();
    for (const i of idx.rows) await c.query(i.def);
    t.indexes_s = ms(t0) / 1000;
    t0 = process.hrtime.bigint();
    for (const f of fks.rows) await c.query(`alter table session_bindings add constraint ${f.name} ${f.def}`);
    t.foreign_keys_s = ms(t0) / 1000;
    t0 = process.hrtime.bigint();
    await c.query("analyze organizations, users, memberships, session_bindings");
    t.analyze_s = ms(t0) / 1000;
  } finally {
    c.release();
  }
  void d;
  return t;
}

async function explain(pool: pg.Pool, a: Account, session: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const run = async (name: string, text: string, values: unknown[]) => {
    const c = await pool.connect();
    try {
      await c.query("begin");
      const r = await c.query(`explain (analyze, buffers, costs off, timing on) ${text}`, values);
      await c.query("rollback");
      out[name] = r.rows.map((x: Record<string, string>) => x["QUERY PLAN"]).join("\n");
    } finally {
      c.release();
    }
  };
  await run(
    "resolution (API key + binding, one statement)",
    `select k.id, k.revoked_at, u.suspended_at, o.suspended_at, m.role, m.suspended_at, b.org_id, b.user_id, b.expires_at, b.tombstoned_at
       from api_keys k join users u on u.id = k.user_id join organizations o on o.id = k.org_id
       left join memberships m on m.org_id = k.org_id and m.user_id = k.user_id
       left join session_bindings b on b.session_id = $2
      where k.prefix = $1`,
    [a.keyPrefix, session],
  );
  await run(
    "expiry batch (expireDueBindings, 500)",
    `update session_bindings set tombstoned_at = now(), tombstone_reason = 'expired'
      where session_id in (select session_id from session_bindings where tombstoned_at is null and expires_at <= now() limit 500)
        and tombstoned_at is null returning session_id`,
    [],
  );
  await run(
    "pending cleanups (pendingCleanups, 100)",
    `select session_id, org_id from session_bindings where tombstoned_at is not null and cleanup_done_at is null order by tombstoned_at limit 100`,
    [],
  );
  await run("active count of one organisation (registration's limit check)", `select count(*) from session_bindings where org_id = $1 and tombstoned_at is null and expires_at > now()`, ["bo_4242"]);
  return out;
}

export async function benchRegistryScale(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) {
    console.log("registry-scale bench: skipped (TEST_DATABASE_URL not set)");
    return;
  }
  const name = `cs_bench_registry_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const d = await openDatabase({ url: u.toString(), poolSize: CONNECTIONS });
  const pool = new pg.Pool({ connectionString: u.toString(), max: 2 });
  const total0 = process.hrtime.bigint();
  try {
    await migrateToLatest(d.db);
    const a = await seedAccount(d.db);
    const sessions = await probeSessions(d, a);
    console.log(`\n## registry at scale (${ORGS} orgs × ${PER_ORG} active bindings = ${(ORGS * PER_ORG).toLocaleString("en")} rows; ${CONNECTIONS} connections, ${SECONDS}s each)`);
    const empty = await measure(d, a, sessions, () => sessions[Math.floor(Math.random() * sessions.length)]!);
    console.log(`empty: identity ${empty.identityRps.toFixed(0)} req/s, lookups ${empty.lookupsPerS.toFixed(0)}/s`);
    const seed = await seedScale(d, pool);
    console.log(`seeded: ${JSON.stringify(seed)}`);
    const rows = await pool.query<{ n: string; bytes: string }>("select count(*) as n, pg_total_relation_size('session_bindings') as bytes from session_bindings");
    const full = await measure(d, a, sessions, () => `s${Math.floor(Math.random() * ORGS)}-${Math.floor(Math.random() * PER_ORG)}`);
    // For the plans: 500 bindings due, 500 tombstoned awaiting cleanup.
    await seedDue(d, 1000);
    await expireDueBindings(identityStore(d.db), systemClock, 500);
    const plans = await explain(pool, a, `s4242-77`);
    console.log(`session_bindings: ${Number(rows.rows[0]!.n).toLocaleString("en")} rows, ${(Number(rows.rows[0]!.bytes) / 2 ** 20).toFixed(0)} MiB with indexes`);
    console.log("measure                          | empty registry | at scale | ratio");
    const row = (label: string, e: number, f: number, unit: string) =>
      console.log(`${label.padEnd(32)} | ${`${e.toFixed(1)} ${unit}`.padStart(14)} | ${`${f.toFixed(1)} ${unit}`.padStart(8)} | ${(f / e).toFixed(2)}`);
    row("GET /execution/identity", empty.identityRps, full.identityRps, "req/s");
    row("binding PK lookups (random)", empty.lookupsPerS, full.lookupsPerS, "/s");
    row("expire batch of 500 (median)", median(empty.expireBatchMs), median(full.expireBatchMs), "ms");
    row("cleanup batch of 100 (median)", median(empty.cleanupBatchMs), median(full.cleanupBatchMs), "ms");
    console.log(`resolution ratio ${(full.identityRps / empty.identityRps).toFixed(2)} (target >= 0.80)`);
    for (const [k, v] of Object.entries(plans)) console.log(`\n### EXPLAIN ${k}\n${v}`);
    console.log(`\ntotal ${(ms(total0) / 1000).toFixed(0)} s`);
  } finally {
    await pool.end();
    await d.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchRegistryScale();
}

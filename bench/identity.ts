/**
 * Benchmark: requests/s of GET /api/v1/execution/identity (authentication +
 * binding resolution, no cache) against two references on the same app, in one
 * run, on PGlite and on PostgreSQL (TEST_DATABASE_URL):
 *
 * - GET /api/v1/me: the same authentication, no identity;
 * - a bare route: the app's whole middleware chain (request log, metrics, path
 *   guard, CSRF, JSON), then ONE primary-key read of the same registry row
 *   (session_bindings by session_id) and a JSON answer — no authentication, no
 *   rules. Mounted for the bench only, at the position of the catalog routes;
 *   and the same bare read as a named prepared statement (`executePrepared`, as
 *   authorize()'s read is), the stricter reference on PGlite, where an
 *   unprepared statement is parsed and planned in this thread on every call.
 *
 * The three routes are measured in alternating rounds (BENCH_ROUNDS, default 3),
 * each BENCH_SECONDS long, so a noisy neighbour hits all of them alike; the
 * table prints the mean of the rounds. BENCH_BASELINE=<checkout> (with its
 * node_modules) also serves that checkout's app over its own database layer, on
 * a database of its own, and measures its identity route in the same rounds — a
 * before/after in one run.
 * Run alone: npx tsx bench/identity.ts
 */
import autocannon from "autocannon";
import express, { type Express } from "express";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { createApp } from "../api/app";
import { executePrepared } from "../core/prepare";
import { identityStore } from "../db/sql/identity/store";
import { systemClock } from "../core/clock";
import { loadConfig } from "../core/config";
import { silentLogger } from "../core/log";
import { registerSession } from "../core/registry/registry";
import { migrateToLatest, openDatabase, type OpenDatabase } from "../db/database";
import type { Db } from "../db/schema";
import { relationalStores } from "../db/stores";
import type { AppContext } from "../api/context";
import { seedAccount } from "../test/support/fixtures";
import { listen } from "../test/support/http";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 16;
const BARE_PATH = "/api/v1/bench/bare-binding";
const BARE_PREPARED_PATH = "/api/v1/bench/bare-binding-prepared";

async function hit(url: string, headers: Record<string, string>): Promise<number> {
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S, pipelining: 1 });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.average;
}

async function openTarget(
  kind: "pglite" | "postgres",
  database: { openDatabase: typeof openDatabase; migrateToLatest: typeof migrateToLatest } = { openDatabase, migrateToLatest },
): Promise<{ d: OpenDatabase; cleanup: () => Promise<void> }> {
  const { openDatabase: open, migrateToLatest: migrate } = database;
  if (kind === "pglite") {
    const d = await open({});
    await migrate(d.db);
    return { d, cleanup: () => d.close() };
  }
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error("no TEST_DATABASE_URL");
  const schema = `bench_${randomBytes(4).toString("hex")}`;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`create schema ${schema}`);
  const d = await open({ url, schema, poolSize: 16 });
  await migrate(d.db);
  return {
    d,
    cleanup: async () => {
      await d.close();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

export interface IdentityBenchRow {
  store: string;
  bareRps: number;
  /** The bare route's read as a named prepared statement (as authorize()'s read is): the stricter reference. */
  barePreparedRps: number;
  meRps: number;
  identityRps: number;
  /** identity ÷ bare: the target is >= 0.9. */
  ratio: number;
  /** The BENCH_BASELINE checkout's identity route, measured in the same rounds. */
  baselineIdentityRps?: number;
}

/**
 * The bare reference route, inserted into `app`'s own router just before the catalog routes
 * (the identity route's router), so it runs behind exactly the same app-level middleware.
 */
function mountBare(app: Express, db: Db): void {
  const bare = express.Router();
  bare.get(BARE_PATH, (req, res, next) => {
    const id = req.headers["x-codesynapse-session"];
    db.selectFrom("session_bindings")
      .select(["org_id", "user_id", "session_id", "expires_at"])
      .where("session_id", "=", typeof id === "string" ? id : "")
      .executeTakeFirst()
      .then((b) => {
        if (!b) return void res.status(404).end();
        res.json({ tenant_id: b.org_id, subject_id: b.user_id, session_id: b.session_id, parent_session_id: b.session_id, expires_at: b.expires_at.toISOString() });
      })
      .catch(next);
  });
  bare.get(BARE_PREPARED_PATH, (req, res, next) => {
    const id = req.headers["x-codesynapse-session"];
    executePrepared(
      db,
      "bench_bare_binding",
      sql<{ org_id: string; user_id: string; session_id: string; expires_at: Date }>`select org_id, user_id, session_id, expires_at from session_bindings where session_id = ${typeof id === "string" ? id : ""}`,
    )
      .then(({ rows: [b] }) => {
        if (!b) return void res.status(404).end();
        res.json({ tenant_id: b.org_id, subject_id: b.user_id, session_id: b.session_id, parent_session_id: b.session_id, expires_at: b.expires_at.toISOString() });
      })
      .catch(next);
  });
  app.use(bare);
  const stack = (app as unknown as { router: { stack: Array<{ handle: unknown }> } }).router.stack;
  const layer = stack.pop()!;
  // The catalog router is the first router whose stack holds the identity route.
  const at = stack.findIndex((l) => {
    const inner = (l.handle as { stack?: Array<{ route?: { path?: string } }> }).stack;
    return inner?.some((x) => x.route?.path === "/api/v1/execution/identity") ?? false;
  });
  if (at < 0) throw new Error("identity route not found in the app's router");
  stack.splice(at, 0, layer);
}

type CreateApp = (ctx: AppContext) => Express;

/**
 * The BENCH_BASELINE checkout's own stack: its app AND its database layer (db/database.ts), on a
 * database of its own (a second in-memory PGlite, or a second schema), seeded by its own fixtures.
 */
interface Baseline {
  listen(kind: "pglite" | "postgres"): Promise<{ url: string; sessionId: string; apiKey: string; close: () => Promise<void> }>;
}

async function baselineStack(): Promise<Baseline | undefined> {
  const dir = process.env.BENCH_BASELINE;
  if (!dir) return undefined;
  const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.resolve(dir, file)).href)) as T;
  const { createApp: baseCreateApp } = await load<{ createApp: CreateApp }>("api/app.ts");
  const database = await load<{ openDatabase: typeof openDatabase; migrateToLatest: typeof migrateToLatest }>("db/database.ts");
  const fixtures = await load<{ seedAccount: typeof seedAccount }>("test/support/fixtures.ts");
  const registry = await load<{ registerSession: typeof registerSession }>("core/registry/registry.ts");
  // Its own identity store, when it has one; a checkout from before it passes the database handle itself.
  const stores = await load<{ identityStore: typeof identityStore }>("db/sql/identity/store.ts").catch(() => undefined);
  // Its own relational stores, when it has them.
  const relational = await load<{ relationalStores: typeof relationalStores }>("db/stores.ts").catch(() => undefined);
  return {
    async listen(kind) {
      const { d, cleanup } = await openTarget(kind, database);
      const a = await fixtures.seedAccount(d.db);
      const sessionId = `bench-${randomBytes(6).toString("hex")}`;
      const identity = stores ? stores.identityStore(d.db) : (d.db as unknown as ReturnType<typeof identityStore>);
      await registry.registerSession(identity, systemClock, { orgId: a.orgId, userId: a.userId, apiKeyId: a.keyId, loginSessionId: null }, sessionId);
      const srv = await listen(baseCreateApp({ db: d.db, identity, ...(relational ? { stores: relational.relationalStores(d.db) } : {}), clock: systemClock, config: loadConfig({}), logger: silentLogger() } as AppContext));
      return {
        url: srv.url,
        sessionId,
        apiKey: a.apiKey,
        close: async () => {
          await srv.close();
          await cleanup();
        },
      };
    },
  };
}

export async function benchIdentity(): Promise<IdentityBenchRow[]> {
  const rows: IdentityBenchRow[] = [];
  const kinds: Array<"pglite" | "postgres"> = ["pglite"];
  if (process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL) kinds.push("postgres");
  else console.log("identity bench: PostgreSQL skipped (TEST_DATABASE_URL not set)");
  const baseline = await baselineStack();
  for (const kind of kinds) {
    const { d, cleanup } = await openTarget(kind);
    try {
      const a = await seedAccount(d.db);
      const sessionId = `bench-${randomBytes(6).toString("hex")}`;
      await registerSession(identityStore(d.db), systemClock, { orgId: a.orgId, userId: a.userId, apiKeyId: a.keyId, loginSessionId: null }, sessionId);
      const app = createApp({ db: d.db, stores: relationalStores(d.db), identity: identityStore(d.db), clock: systemClock, config: loadConfig({}), logger: silentLogger() });
      mountBare(app, d.db);
      const srv = await listen(app);
      const base = baseline ? await baseline.listen(kind) : undefined;
      try {
        const auth = { authorization: `Bearer ${a.apiKey}` };
        const bound = { ...auth, "x-codesynapse-session": sessionId, "x-codesynapse-parent-session": sessionId };
        const targets: Array<[keyof IdentityBenchRow, string, Record<string, string>]> = [
          ["bareRps", `${srv.url}${BARE_PATH}`, { "x-codesynapse-session": sessionId }],
          ["barePreparedRps", `${srv.url}${BARE_PREPARED_PATH}`, { "x-codesynapse-session": sessionId }],
          ["meRps", `${srv.url}/api/v1/me`, auth],
          ["identityRps", `${srv.url}/api/v1/execution/identity`, bound],
        ];
        if (base) {
          const headers = { authorization: `Bearer ${base.apiKey}`, "x-codesynapse-session": base.sessionId, "x-codesynapse-parent-session": base.sessionId };
          targets.push(["baselineIdentityRps", `${base.url}/api/v1/execution/identity`, headers]);
        }
        for (const [, url, headers] of targets) await hit(url, headers); // warm-up (JIT, prepared statements, pool)
        const sums = new Map<string, number>();
        for (let round = 0; round < ROUNDS; round++) {
          for (const [name, url, headers] of targets) sums.set(name, (sums.get(name) ?? 0) + (await hit(url, headers)));
        }
        const mean = (name: string) => (sums.get(name) ?? 0) / ROUNDS;
        const row: IdentityBenchRow = { store: kind, bareRps: mean("bareRps"), barePreparedRps: mean("barePreparedRps"), meRps: mean("meRps"), identityRps: mean("identityRps"), ratio: mean("identityRps") / mean("bareRps") };
        if (base) row.baselineIdentityRps = mean("baselineIdentityRps");
        rows.push(row);
      } finally {
        await srv.close();
        await base?.close();
      }
    } finally {
      await cleanup();
    }
  }
  return rows;
}

export function printIdentity(rows: IdentityBenchRow[]): void {
  console.log(`\n## identity resolution (${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION_S}s each, mean req/s)`);
  const withBase = rows.some((r) => r.baselineIdentityRps !== undefined);
  console.log(`store     | bare PK read | bare, prepared | GET /me | GET /execution/identity | identity ÷ bare (target >= 0.90) | identity ÷ bare prepared | identity ÷ /me${withBase ? " | baseline identity | this ÷ baseline" : ""}`);
  for (const r of rows) {
    let line = `${r.store.padEnd(9)} | ${r.bareRps.toFixed(0).padStart(12)} | ${r.barePreparedRps.toFixed(0).padStart(14)} | ${r.meRps.toFixed(0).padStart(7)} | ${r.identityRps.toFixed(0).padStart(23)} | ${r.ratio.toFixed(2).padStart(32)} | ${(r.identityRps / r.barePreparedRps).toFixed(2).padStart(23)} | ${(r.identityRps / r.meRps).toFixed(2).padStart(14)}`;
    if (r.baselineIdentityRps !== undefined) line += ` | ${r.baselineIdentityRps.toFixed(0).padStart(17)} | ${(r.identityRps / r.baselineIdentityRps).toFixed(2).padStart(15)}`;
    console.log(line);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printIdentity(await benchIdentity());
}

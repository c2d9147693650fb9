/**
 * Benchmark: requests/s of GET /api/v1/execution/identity (auth +
 * binding resolution, no cache) against GET /api/v1/me (same auth, no
 * identity), in one run, on PGlite and on PostgreSQL (TEST_DATABASE_URL).
 * Run alone: npx tsx bench/identity.ts
 */
import autocannon from "autocannon";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { createApp } from "../api/app";
import { systemClock } from "../core/clock";
import { loadConfig } from "../core/config";
import { silentLogger } from "../core/log";
import { registerSession } from "../core/registry/registry";
import { migrateToLatest, openDatabase, type OpenDatabase } from "../db/database";
import { seedAccount } from "../test/support/fixtures";
import { listen } from "../test/support/http";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;

async function hit(url: string, headers: Record<string, string>): Promise<number> {
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S, pipelining: 1 });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.average;
}

async function openTarget(kind: "pglite" | "postgres"): Promise<{ d: OpenDatabase; cleanup: () => Promise<void> }> {
  if (kind === "pglite") {
    const d = await openDatabase({});
    await migrateToLatest(d.db);
    return { d, cleanup: () => d.close() };
  }
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error("no TEST_DATABASE_URL");
  const schema = `bench_${randomBytes(4).toString("hex")}`;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`create schema ${schema}`);
  const d = await openDatabase({ url, schema, poolSize: 16 });
  await migrateToLatest(d.db);
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
  meRps: number;
  identityRps: number;
  ratio: number;
}

export async function benchIdentity(): Promise<IdentityBenchRow[]> {
  const rows: IdentityBenchRow[] = [];
  const kinds: Array<"pglite" | "postgres"> = ["pglite"];
  if (process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL) kinds.push("postgres");
  else console.log("identity bench: PostgreSQL skipped (TEST_DATABASE_URL not set)");
  for (const kind of kinds) {
    const { d, cleanup } = await openTarget(kind);
    try {
      const a = await seedAccount(d.db);
      const sessionId = `bench-${randomBytes(6).toString("hex")}`;
      await registerSession(d.db, systemClock, { orgId: a.orgId, userId: a.userId, apiKeyId: a.keyId, loginSessionId: null }, sessionId);
      const srv = await listen(createApp({ db: d.db, clock: systemClock, config: loadConfig({}), logger: silentLogger() }));
      try {
        const auth = { authorization: `Bearer ${a.apiKey}` };
        await hit(`${srv.url}/api/v1/me`, auth); // warm-up
        const meRps = await hit(`${srv.url}/api/v1/me`, auth);
        const identityRps = await hit(`${srv.url}/api/v1/execution/identity`, {
          ...auth,
          "x-codesynapse-session": sessionId,
          "x-codesynapse-parent-session": sessionId,
        });
        rows.push({ store: kind, meRps, identityRps, ratio: identityRps / meRps });
      } finally {
        await srv.close();
      }
    } finally {
      await cleanup();
    }
  }
  return rows;
}

export function printIdentity(rows: IdentityBenchRow[]): void {
  console.log(`\n## identity resolution (${CONNECTIONS} connections, ${DURATION_S}s each)`);
  console.log("store     | GET /me req/s | GET /execution/identity req/s | ratio (target >= 0.70)");
  for (const r of rows) {
    console.log(`${r.store.padEnd(9)} | ${r.meRps.toFixed(0).padStart(13)} | ${r.identityRps.toFixed(0).padStart(29)} | ${r.ratio.toFixed(2)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printIdentity(await benchIdentity());
}

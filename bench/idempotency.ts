/**
 * Submissions with and without an idempotency key, and the cost of the
 * completion-webhook trigger on terminal updates (`npx tsx bench/idempotency.ts`).
 *
 * On PostgreSQL (TEST_DATABASE_URL / DATABASE_URL), a fresh schema per run,
 * BENCH_SUBMITTERS (16) parallel submitters, BENCH_JOBS (2000) submissions per row:
 *   - no key            the plain batched path (one authorization read + one INSERT per flush)
 *   - fresh keys        every submission its own key: the flush claims keys and inserts in one transaction
 *   - replays           every submission repeats one of 100 keys already held: answered from the key
 * and BENCH_JOBS cancels of queued jobs (a terminal update, 16 in parallel) for an
 * organisation without a webhook and one with (the trigger then inserts a delivery).
 */
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { z } from "zod";
import { addMember, createOrg, createRepo, createUser, grantRepo } from "../core/accounts/accounts";
import { createApiKey } from "../core/accounts/api-keys";
import type { Principal } from "../core/authorize";
import { systemClock } from "../core/clock";
import { makeIdentity, type Identity } from "../core/execution/identity";
import { silentLogger } from "../core/log";
import { registerSession } from "../core/registry/registry";
import { migrateToLatest, openDatabase } from "../db/database";
import type { Db } from "../db/schema";
import { JobRegistry } from "../queues/registry";
import { createJobQueue } from "../queues/service";
import { cancelJob } from "../queues/sql/cancelJob";
import { submitJobOnce } from "../queues/submit";
import { setOrgWebhook } from "../queues/webhooks";
import { defineHandler, type JobHandler } from "../workers/handler";
import { identityStore } from "../db/sql/identity/store";

const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://codesynapse:codesynapse@127.0.0.1:5432/codesynapse_test";
const N = Number(process.env.BENCH_JOBS ?? 2000);
const SUBMITTERS = Number(process.env.BENCH_SUBMITTERS ?? 16);

async function parallel(n: number, width: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await fn(next++);
  }));
  return (performance.now() - t0) / 1000;
}

async function account(db: Db) {
  const store = identityStore(db);
  const { org_id } = await createOrg(store, { name: `bench-${randomBytes(3).toString("hex")}` });
  const { user_id } = await createUser(store, { email: `${randomUUID()}@bench.test`, password: undefined, platformAdmin: false });
  await addMember(store, { orgId: org_id, userId: user_id, role: "member" });
  const key = await createApiKey(store, { orgId: org_id, userId: user_id });
  const { repo_id } = await createRepo(store, { orgId: org_id, name: "bench" });
  await grantRepo(store, { repoId: repo_id, userId: user_id, level: "write" });
  const principal: Principal = { orgId: org_id, userId: user_id, apiKeyId: key.key_id, loginSessionId: null };
  const session = `bench-${randomUUID()}`;
  await registerSession(store, systemClock, principal, session);
  const identity: Identity = makeIdentity({ tenant_id: org_id, subject_id: user_id, session_id: session, parent_session_id: session });
  return { principal, identity, repoId: repo_id, orgId: org_id };
}

async function main(): Promise<void> {
  const schema = `bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const database = await openDatabase({ url: pgUrl, schema, poolSize: SUBMITTERS + 4 });
  try {
    await migrateToLatest(database.db);
    const db = database.db;
    const noop = defineHandler({ kind: "bench.noop", pool: "ai", restartable: true, maxAttempts: 1, repoLevel: "read", params: z.strictObject({ i: z.number() }), async run() { return {}; } });
    const registry = new JobRegistry<JobHandler>().register(noop);
    const { queue } = createJobQueue({ db, identity: identityStore, clock: systemClock, logger: silentLogger(), registry });
    const a = await account(db);
    const submit = (i: number, key?: string) =>
      submitJobOnce(queue, a.identity, a.principal, { kind: "bench.noop", params: { i }, repo: a.repoId, ...(key ? { idempotencyKey: key } : {}) });

    const rows: Array<[string, number]> = [];
    rows.push(["no key", N / (await parallel(N, SUBMITTERS, (i) => submit(i)))]);
    rows.push(["fresh keys", N / (await parallel(N, SUBMITTERS, (i) => submit(N + i, randomUUID())))]);
    for (let k = 0; k < 100; k++) await submit(10 * N + k, `held-${k}`);
    rows.push(["replays", N / (await parallel(N, SUBMITTERS, (i) => submit(10 * N + (i % 100), `held-${i % 100}`)))]);
    console.log(`submissions (${N} each, ${SUBMITTERS} parallel submitters, PostgreSQL)`);
    for (const [name, rate] of rows) console.log(`  ${name.padEnd(12)} ${rate.toFixed(0).padStart(6)} /s   ${(rate / rows[0]![1]).toFixed(2)}×`);

    const cancels: Array<[string, number]> = [];
    for (const hooked of [false, true]) {
      const b = await account(db);
      if (hooked) await setOrgWebhook(db, systemClock.now(), { orgId: b.orgId, url: "http://127.0.0.1:9/unused" });
      const ids: string[] = [];
      for (let i = 0; i < N; i++) ids.push((await submitJobOnce(queue, b.identity, b.principal, { kind: "bench.noop", params: { i }, repo: b.repoId })).row.id);
      const s = await parallel(N, SUBMITTERS, (i) => cancelJob(db, b.identity, ids[i]!, systemClock.now()));
      cancels.push([hooked ? "with webhook" : "no webhook", N / s]);
      const n = await db.selectFrom("webhook_deliveries").select((eb) => eb.fn.countAll<string>().as("n")).where("org_id", "=", b.orgId).executeTakeFirstOrThrow();
      if (Number(n.n) !== (hooked ? N : 0)) throw new Error(`expected ${hooked ? N : 0} deliveries, found ${n.n}`);
    }
    console.log(`terminal updates (${N} cancels of queued jobs, ${SUBMITTERS} in parallel)`);
    for (const [name, rate] of cancels) console.log(`  ${name.padEnd(12)} ${rate.toFixed(0).padStart(6)} /s   ${(rate / cancels[0]![1]).toFixed(2)}×`);
  } finally {
    await database.close();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  }
}

await main();

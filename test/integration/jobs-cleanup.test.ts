/**
 * The cleanup pool (WRK-6, RET-1) on the job machinery: the persisted system
 * schedule fires, bindings expire into tombstones, registered cleaners run in
 * bounded batches, a failing cleaner is retried on the next sweep, and
 * `cleanup_done_at` is set only when every cleaner is done — never restoring
 * access.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { authorize } from "../../core/authorize";
import { ManualClock } from "../../core/clock";
import { SessionCleaners, type SessionCleaner } from "../../core/retention/cleaners";
import { revokeSession } from "../../core/registry/registry";
import type { Db } from "../../db/schema";
import { cleanupHandler } from "../../workers/pools/cleanup";
import { relationalStores } from "../../db/stores";
import { describeEachDatabase } from "../support/databases";
import { startTestHost, type TestHost } from "../support/job-host";
import { jobRow, seedExecution, waitFor } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

/** A real cleaner over a real table: deletes at most `limit` of the session's rows per call. */
function tableCleaner(db: Db): SessionCleaner {
  return {
    name: "test-items",
    async purgeSession(t, { limit }) {
      await sql`delete from cleanup_items where ctid in (select ctid from cleanup_items where tenant_id = ${t.tenant_id} and session_id = ${t.session_id} limit ${limit})`.execute(db);
      const left = await sql<{ n: string }>`select count(*) as n from cleanup_items where tenant_id = ${t.tenant_id} and session_id = ${t.session_id}`.execute(db);
      return { done: Number(left.rows[0]!.n) === 0 };
    },
  };
}

/** Fails for its first `failures` calls (a store that is briefly down), then is done. */
function flakyCleaner(failures: number): SessionCleaner & { calls: number } {
  const c = {
    name: "flaky",
    calls: 0,
    async purgeSession() {
      c.calls++;
      if (c.calls <= failures) throw new Error("store unavailable");
      return { done: true };
    },
  };
  return c;
}

await describeEachDatabase("cleanup pool", (t) => {
  const clock = new ManualClock(Date.now());
  let th: TestHost;
  const flaky = flakyCleaner(1);
  beforeAll(async () => {
    await sql`create table if not exists cleanup_items (tenant_id text not null, session_id text not null, n int)`.execute(t().db);
  });
  afterAll(async () => th?.stop());

  it("expires, cleans in bounded batches, retries a failed cleaner next sweep, marks done only when all are done", async () => {
    const db = t().db;
    const revoked = await seedExecution(db, clock);
    const expiring = await seedExecution(db, clock);
    const live = await seedExecution(db, clock);
    for (const e of [revoked, expiring, live]) {
      await sql`insert into cleanup_items (tenant_id, session_id, n) select ${e.identity.tenant_id}, ${e.identity.session_id}, g from generate_series(1, 25) g`.execute(db);
    }
    await revokeSession(identityStore(db), clock, { ...revoked.principal, role: "member" }, revoked.identity.session_id);
    // Past `expiring`'s deadline (registered at the same instant as the others, so move only it).
    await db.updateTable("session_bindings").set({ expires_at: new Date(clock.now().getTime() - 1) }).where("session_id", "=", expiring.identity.session_id).execute();

    const cleaners = new SessionCleaners().register(tableCleaner(db)).register(flaky);
    th = await startTestHost(t(), [cleanupHandler(cleaners, relationalStores(t().db), { limit: 10, batchesPerSession: 2, everyMs: 1000 })], { clock, scheduleMs: 60_000 });

    const schedule = await db.selectFrom("job_schedules").selectAll().where("id", "=", "system:cleanup.sweep").executeTakeFirstOrThrow();
    expect([schedule.system, schedule.tenant_id, schedule.session_id, schedule.interval_ms]).toEqual([true, null, null, 1000]);

    // The host also ticks once as it starts, racing this test's first tick for the schedule row (the
    // loser skips it): wait for a firing newer than the last one seen, ticking again meanwhile.
    let lastJob: string | null = null;
    const sweep = async () => {
      const jobId = await waitFor(async () => {
        await th.host.tickSchedules();
        const s = await db.selectFrom("job_schedules").select("last_job_id").where("id", "=", "system:cleanup.sweep").executeTakeFirstOrThrow();
        return s.last_job_id !== null && s.last_job_id !== lastJob && s.last_job_id;
      });
      lastJob = jobId;
      const row = await waitFor(async () => {
        const r = await jobRow(db, jobId);
        return r.status === "succeeded" && r;
      });
      clock.advance(1000);
      return row;
    };
    const count = async (sessionId: string) =>
      Number((await sql<{ n: string }>`select count(*) as n from cleanup_items where session_id = ${sessionId}`.execute(db)).rows[0]!.n);
    const binding = (id: string) => db.selectFrom("session_bindings").selectAll().where("session_id", "=", id).executeTakeFirstOrThrow();

    const first = await sweep();
    expect(first.system).toBe(true);
    expect(first.session_id).toBeNull();
    expect((await binding(expiring.identity.session_id)).tombstone_reason).toBe("expired");
    // Bounded: 2 batches of 10 per session per sweep.
    expect(await count(revoked.identity.session_id)).toBe(5);
    expect(await count(expiring.identity.session_id)).toBe(5);
    expect(await count(live.identity.session_id)).toBe(25);
    expect((await binding(revoked.identity.session_id)).cleanup_done_at).toBeNull();

    await sweep();
    expect(await count(revoked.identity.session_id)).toBe(0);
    expect(await count(expiring.identity.session_id)).toBe(0);
    // Both cleaners done now (the flaky one failed once, then succeeded).
    expect((await binding(revoked.identity.session_id)).cleanup_done_at).not.toBeNull();
    expect((await binding(expiring.identity.session_id)).cleanup_done_at).not.toBeNull();
    expect((await binding(live.identity.session_id)).cleanup_done_at).toBeNull();
    expect(await count(live.identity.session_id)).toBe(25);
    expect(flaky.calls).toBeGreaterThanOrEqual(3);

    // Cleanup never restores access.
    for (const [e, code] of [[revoked, "session_revoked"], [expiring, "session_expired"]] as const) {
      await expect(authorize(identityStore(db), clock, e.principal, e.identity.session_id)).rejects.toMatchObject({ code });
      expect((await binding(e.identity.session_id)).tombstoned_at).not.toBeNull();
    }
    await expect(authorize(identityStore(db), clock, live.principal, live.identity.session_id)).resolves.toBeTruthy();
  });
});

/**
 * Fair share in the claim (queues/sql/fairShare.ts), on PGlite and PostgreSQL: organisations
 * take turns, then sessions, FIFO within a session; operator weights; the running cap; and
 * the claim's own guarantees (one claimer per row, only due rows) kept. Each ordering test
 * would fail under FIFO, which is checked too: the same rows claimed without `fair` come out
 * in age order.
 */
import { expect, it } from "vitest";
import { ManualClock } from "../../core/clock";
import type { Pool } from "../../queues/jobs";
import { claimJobs } from "../../queues/sql/claimJobs";
import type { FairShare } from "../../queues/sql/fairShare";
import { finishJob } from "../../queues/sql/finishJob";
import { describeEachDatabase } from "../support/databases";
import { enqueueFor, seedExecution, type Execution } from "../support/jobs";

const LEASE = 60_000;

await describeEachDatabase("fair share in the claim", (t) => {
  const pool: Pool = "embedding";
  const fresh = async () => {
    await t().db.deleteFrom("jobs").where("pool", "=", pool).execute();
    return new ManualClock(Date.now());
  };
  /** n rows for e, each 1 ms younger than the last; returns their ids in age order. */
  const flood = async (clock: ManualClock, e: Execution, n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      ids.push((await enqueueFor(t().db, clock, e, { pool })).id);
      clock.advance(1);
    }
    return ids;
  };
  const claim = (clock: ManualClock, limit: number, fair?: FairShare) =>
    claimJobs(t().db, { pool, workerId: "w", leaseMs: LEASE, limit, now: clock.now(), ...(fair ? { fair } : {}) });

  const sorted = (xs: ReadonlyArray<string | undefined>) => [...xs].map(String).sort();
  const ids = (rows: ReadonlyArray<{ id: string }>) => sorted(rows.map((r) => r.id));
  /** A claimed batch's rows in the order the claim returned them: the order it chose them in, which the source starts them in. */
  const inOrder = (rows: ReadonlyArray<{ id: string }>) => rows.map((r) => r.id);

  it("a flooding organisation does not delay another's jobs: turns alternate (FIFO would serve the flood first)", async () => {
    const clock = await fresh();
    const a = await seedExecution(t().db, clock);
    const b = await seedExecution(t().db, clock);
    const aIds = await flood(clock, a, 30);
    const bIds = await flood(clock, b, 3);
    expect(inOrder(await claim(clock, 4, {}))).toEqual([aIds[0], bIds[0], aIds[1], bIds[1]]);
    expect(inOrder(await claim(clock, 4, {}))).toEqual([aIds[2], bIds[2], aIds[3], aIds[4]]);
    // The same backlog under FIFO: B's first row waits behind all of A's.
    const clock2 = await fresh();
    const a2 = await flood(clock2, a, 30);
    await flood(clock2, b, 3);
    expect(inOrder(await claim(clock2, 8))).toEqual(a2.slice(0, 8));
  });

  it("sessions of one organisation take turns; one session's rows stay first-in, first-out", async () => {
    const clock = await fresh();
    const s1 = await seedExecution(t().db, clock);
    const s2 = await seedExecution(t().db, clock, { account: s1.account });
    const one = await flood(clock, s1, 10);
    const two = await flood(clock, s2, 2);
    expect(inOrder(await claim(clock, 6, {}))).toEqual([one[0], two[0], one[1], two[1], one[2], one[3]]);
    expect(inOrder(await claim(clock, 10, {}))).toEqual(one.slice(4));
  });

  it("an operator weight gives an organisation that many turns per round", async () => {
    const clock = await fresh();
    const a = await seedExecution(t().db, clock);
    const b = await seedExecution(t().db, clock);
    await flood(clock, a, 20);
    await flood(clock, b, 20);
    const got = await claim(clock, 8, { weights: new Map([[a.identity.tenant_id, 3]]) });
    const fromA = got.filter((r) => r.tenant_id === a.identity.tenant_id).length;
    expect(fromA).toBe(6);
    expect(got.length - fromA).toBe(2);
  });

  it("the running cap: an organisation never holds more than its cap of the pool's running rows", async () => {
    const clock = await fresh();
    const a = await seedExecution(t().db, clock);
    const b = await seedExecution(t().db, clock);
    await flood(clock, a, 10);
    await flood(clock, b, 10);
    const fair = { runningPerOrg: 3 };
    const first = await claim(clock, 8, fair);
    const count = (rows: typeof first, e: Execution) => rows.filter((r) => r.tenant_id === e.identity.tenant_id).length;
    expect([count(first, a), count(first, b)]).toEqual([3, 3]);
    // Full: nothing more while all 6 run, though 14 rows wait.
    expect(await claim(clock, 8, fair)).toEqual([]);
    // One of A's ends: exactly one of A's next rows may start.
    const done = first.find((r) => r.tenant_id === a.identity.tenant_id)!;
    expect(await finishJob(t().db, { id: done.id, token: done.lease_token!, now: clock.now(), result: null })).toBe(true);
    const next = await claim(clock, 8, fair);
    expect(next.map((r) => r.tenant_id)).toEqual([a.identity.tenant_id]);
  });

  it("keeps the claim's guarantees: concurrent fair claims never share a row, rows not yet due wait", async () => {
    const clock = await fresh();
    const a = await seedExecution(t().db, clock);
    const b = await seedExecution(t().db, clock);
    const all = new Set([...(await flood(clock, a, 12)), ...(await flood(clock, b, 8))]);
    const later = await enqueueFor(t().db, clock, b, { pool });
    await t().db.updateTable("jobs").set({ run_at: new Date(clock.now().getTime() + 60_000) }).where("id", "=", later.id).execute();
    const batches = await Promise.all(
      Array.from({ length: 5 }, (_, i) => claimJobs(t().db, { pool, workerId: `w${i}`, leaseMs: LEASE, limit: 6, now: clock.now(), fair: {} })),
    );
    const claimed = batches.flat();
    // No row twice; a claimer that found the fair candidates taken filled its batch first-in, first-out.
    expect(new Set(claimed.map((r) => r.id)).size).toBe(claimed.length);
    expect(claimed.length).toBe(20);
    expect(new Set(claimed.map((r) => r.id))).toEqual(all);
    for (const r of claimed) expect(r).toMatchObject({ status: "running", attempts: 1 });
    expect(await claim(clock, 5, {})).toEqual([]);
    clock.advance(60_001);
    expect(ids(await claim(clock, 5, {}))).toEqual([later.id]);
  });
});

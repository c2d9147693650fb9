/**
 * submitJob with many submissions at once (queues/submit.ts): they share one
 * authorization read and one multi-row insert, yet each is answered exactly as a
 * lone submission would be — its own refusal code, its own identity on its
 * row, nothing written for a refused one. Inside a caller's transaction the
 * row lives and dies with that transaction. One request that makes the shared
 * statement fail (a NUL byte) fails alone: its batch is sent again request by
 * request (core/coalescer.ts). On PGlite and on PostgreSQL.
 */
import { sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { suspendMember } from "../../core/accounts/accounts";
import { systemClock } from "../../core/clock";
import { AppError } from "../../core/errors";
import { silentLogger } from "../../core/log";
import { revokeSession } from "../../core/registry/registry";
import { inTransaction } from "../../core/transaction";
import { JobRegistry } from "../../queues/registry";
import { createJobQueue } from "../../queues/service";
import { submitJob, type JobQueue, type SubmitInput } from "../../queues/submit";
import { defineHandler, type JobHandler } from "../../workers/handler";
import { describeEachDatabase } from "../support/databases";
import { seedAccount } from "../support/fixtures";
import { anyParams, seedExecution, type Execution } from "../support/jobs";
import { identityStore } from "../../db/sql/identity/store";

const clock = systemClock;

const registry = new JobRegistry<JobHandler>().register(
  defineHandler({ kind: "test.submit", pool: "ai", restartable: true, maxAttempts: 3, repoLevel: "write", params: anyParams, run: async () => ({}) }),
);

await describeEachDatabase("job submission", (t) => {
  let queue: JobQueue;
  beforeAll(() => {
    queue = createJobQueue({ db: t().db, identity: identityStore, clock, logger: silentLogger(), registry }).queue;
  });

  const submit = (e: Execution, n: number, over: Partial<Execution> = {}) =>
    submitJob(queue, over.identity ?? e.identity, over.principal ?? e.principal, { kind: "test.submit", params: { n }, repo: e.account.repoId });

  it("submissions made together are each answered as if alone: own code, own identity, nothing written when refused", async () => {
    const db = t().db;
    const ok1 = await seedExecution(db, clock);
    const ok2 = await seedExecution(db, clock);
    const revoked = await seedExecution(db, clock);
    await revokeSession(identityStore(db), clock, { ...revoked.principal, role: "member" }, revoked.identity.session_id);
    const readOnly = await seedExecution(db, clock, { account: await seedAccount(db, { repoLevel: "read" }) });
    const suspended = await seedExecution(db, clock);
    await suspendMember(identityStore(db), { orgId: suspended.account.orgId, userId: suspended.account.userId, at: clock.now() });

    // All in the same tick: they go out in shared statements.
    const cases = [
      { e: ok1, expect: "ok" },
      { e: revoked, expect: "session_revoked" },
      { e: ok2, expect: "ok" },
      { e: readOnly, expect: "repo_permission_denied" },
      { e: suspended, expect: "membership_suspended" },
      // ok1's session claimed by ok2's principal: not theirs.
      { e: ok2, over: { identity: ok1.identity }, expect: "session_forbidden" },
    ] as const;
    const calls = cases.flatMap((c) => [0, 1, 2, 3].map((n) => ({ c, p: submit(c.e, n, "over" in c ? c.over : {}) })));
    const settled = await Promise.allSettled(calls.map((x) => x.p));

    settled.forEach((s, i) => {
      const { c } = calls[i]!;
      if (c.expect === "ok") {
        expect(s.status).toBe("fulfilled");
        const row = (s as PromiseFulfilledResult<Awaited<ReturnType<typeof submitJob>>>).value;
        expect(row).toMatchObject({ session_id: c.e.identity.session_id, tenant_id: c.e.account.orgId, actor_user_id: c.e.account.userId, repo_id: c.e.account.repoId, status: "queued" });
      } else {
        expect(s.status).toBe("rejected");
        const err = (s as PromiseRejectedResult).reason as AppError;
        expect(err).toBeInstanceOf(AppError);
        expect(err.code).toBe(c.expect);
      }
    });

    const rows = await db.selectFrom("jobs").select(["session_id", "actor_user_id", "params"]).where("kind", "=", "test.submit").execute();
    const bySession = new Map<string, Array<{ actor: string | null; n: number }>>();
    for (const r of rows) bySession.set(r.session_id!, [...(bySession.get(r.session_id!) ?? []), { actor: r.actor_user_id, n: (r.params as { n: number }).n }]);
    expect([...bySession.keys()].sort()).toEqual([ok1.identity.session_id, ok2.identity.session_id].sort());
    for (const e of [ok1, ok2]) {
      const mine = bySession.get(e.identity.session_id)!;
      expect(mine.map((m) => m.n).sort()).toEqual([0, 1, 2, 3]);
      expect(new Set(mine.map((m) => m.actor))).toEqual(new Set([e.account.userId]));
    }
  });

  it("inside the caller's transaction: the row commits or rolls back with it, and waits for the reconciler to dispatch it", async () => {
    const db = t().db;
    const e = await seedExecution(db, clock);
    await expect(
      inTransaction(db, async (tx) => {
        await submitJob(queue, e.identity, e.principal, { kind: "test.submit", params: { n: 1 }, repo: e.account.repoId }, { tx });
        throw new Error("caller fails after submitting");
      }),
    ).rejects.toThrow("caller fails");
    const kept = await inTransaction(db, (tx) => submitJob(queue, e.identity, e.principal, { kind: "test.submit", params: { n: 2 }, repo: e.account.repoId }, { tx }));
    const rows = await sql<{ id: string; dispatched_at: Date | null }>`select id, dispatched_at from jobs where session_id = ${e.identity.session_id}`.execute(db);
    expect(rows.rows).toEqual([{ id: kept.id, dispatched_at: null }]);
  });

  // Issue 11 (3a): one poisoned submission among many valid ones sent together. The shared
  // statement fails as a whole; the coalescer then sends each member alone, so only the bad one
  // fails (with its own store error) and every valid one is written exactly once.
  for (const poison of ["repo", "params"] as const) {
    const where = poison === "repo" ? "repository reference" : "params";
    it(`one submission with a NUL in its ${where} fails alone; the 140 valid ones sent with it are each written once`, async () => {
      const db = t().db;
      const es = [await seedExecution(db, clock), await seedExecution(db, clock)];
      const bad = await seedExecution(db, clock);
      const badInput: SubmitInput =
        poison === "repo"
          ? { kind: "test.submit", params: { n: -1 }, repo: `${bad.account.repoId}\u0000x` }
          : { kind: "test.submit", params: { n: -1, s: "a\u0000b" }, repo: bad.account.repoId };
      const valid = Array.from({ length: 140 }, (_, n) => ({ e: es[n % 2]!, n }));
      const inputs: Array<{ e: Execution; input: SubmitInput }> = valid.map(({ e, n }) => ({
        e,
        input: { kind: "test.submit", params: { n }, repo: e.account.repoId },
      }));
      inputs.splice(70, 0, { e: bad, input: badInput });
      // All in the same tick: the first goes out alone, the next 64 together, then the 64 with the bad one among them.
      const settled = await Promise.allSettled(inputs.map(({ e, input }) => submitJob(queue, e.identity, e.principal, input)));

      const badResult = settled.splice(70, 1)[0]!;
      expect(badResult.status).toBe("rejected");
      expect(settled.filter((s) => s.status === "rejected").map((s) => String((s as PromiseRejectedResult).reason))).toEqual([]);
      settled.forEach((s, i) => {
        const row = (s as PromiseFulfilledResult<Awaited<ReturnType<typeof submitJob>>>).value;
        expect(row).toMatchObject({ session_id: valid[i]!.e.identity.session_id, params: { n: valid[i]!.n }, status: "queued" });
      });

      const rows = await db
        .selectFrom("jobs")
        .select(["id", "session_id", "params"])
        .where("session_id", "in", [...es, bad].map((e) => e.identity.session_id))
        .execute();
      expect(rows.filter((r) => r.session_id === bad.identity.session_id)).toEqual([]);
      expect(rows.map((r) => (r.params as { n: number }).n).sort((a, b) => a - b)).toEqual(valid.map((v) => v.n));
      expect(new Set(rows.map((r) => r.id))).toEqual(new Set(settled.map((s) => (s as PromiseFulfilledResult<{ id: string }>).value.id)));
    });
  }
});

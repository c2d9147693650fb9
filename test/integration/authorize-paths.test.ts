/**
 * One state, one answer, on every path: the HTTP middleware (a presented API
 * key), authorize() (MCP tools, submission: a known principal) and the job
 * claim's own read (the recheck before work: the principal a row recorded)
 * read through the one statement and decide by the one rule order. States with
 * two faults at once are where separately written checks used to disagree (a
 * revoked key on a revoked session was api_key_revoked over HTTP and
 * session_revoked in the worker).
 */
import { expect, it } from "vitest";
import { createApp } from "../../api/app";
import { revokeApiKey } from "../../core/accounts/api-keys";
import { suspendMember, suspendUser } from "../../core/accounts/accounts";
import { authorize } from "../../core/authorize";
import { ManualClock } from "../../core/clock";
import { AppError } from "../../core/errors";
import { revokeSession } from "../../core/registry/registry";
import { claimJobsChecked } from "../../queues/sql/claimJobs";
import { testContext } from "../support/app";
import { describeEachDatabase } from "../support/databases";
import { call, executionHeaders, listen } from "../support/http";
import { enqueueFor, seedExecution, type Execution } from "../support/jobs";
import type { Db } from "../../db/schema";
import { identityStore } from "../../db/sql/identity/store";

type Change = (db: Db, clock: ManualClock, e: Execution) => Promise<unknown>;

const revokeKey: Change = (db, clock, e) => revokeApiKey(identityStore(db), { prefix: e.account.keyPrefix, at: clock.now() });
const revokeBinding: Change = (db, clock, e) => revokeSession(identityStore(db), clock, { ...e.principal, role: "member" }, e.identity.session_id);
const suspendMembership: Change = (db, clock, e) => suspendMember(identityStore(db), { orgId: e.account.orgId, userId: e.account.userId, at: clock.now() });
const suspendTheUser: Change = (db, clock, e) => suspendUser(identityStore(db), { userId: e.account.userId, at: clock.now() });

const STATES: ReadonlyArray<{ name: string; changes: Change[]; code: string }> = [
  { name: "in good standing", changes: [], code: "ok" },
  { name: "revoked key on a revoked session", changes: [revokeBinding, revokeKey], code: "api_key_revoked" },
  { name: "suspended membership on a revoked session", changes: [revokeBinding, suspendMembership], code: "membership_suspended" },
  { name: "suspended user with a revoked key", changes: [suspendTheUser, revokeKey], code: "api_key_revoked" },
  { name: "suspended user and membership", changes: [suspendMembership, suspendTheUser], code: "user_suspended" },
  { name: "revoked session", changes: [revokeBinding], code: "session_revoked" },
];

await describeEachDatabase("one authorization answer on every path", (t) => {
  it("HTTP, authorize() and the job claim give the same code for the same state", async () => {
    const clock = new ManualClock(Date.now());
    const srv = await listen(createApp(testContext(t().db, { clock })));
    const pool = "fix";
    try {
      await t().db.deleteFrom("jobs").where("pool", "=", pool).execute();
      const seeded = [];
      for (const s of STATES) {
        const e = await seedExecution(t().db, clock);
        const job = await enqueueFor(t().db, clock, e, { pool });
        for (const change of s.changes) await change(t().db, clock, e);
        seeded.push({ s, e, job });
      }
      const claimed = new Map((await claimJobsChecked(t().db, { pool, workerId: "w", leaseMs: 60_000, limit: 50, now: clock.now() })).map((c) => [c.row.id, c]));
      const code = (x: unknown) => (x instanceof AppError ? x.code : "ok");
      const answers = [];
      for (const { s, e, job } of seeded) {
        const http = await call(srv.url, "GET", "/api/v1/execution/identity", { headers: executionHeaders(e.account.apiKey, e.identity.session_id) });
        const direct = await authorize(identityStore(t().db), clock, e.principal, e.identity.session_id).catch((err: unknown) => err);
        const c = claimed.get(job.id)!;
        const claim = await authorize(identityStore(t().db), clock, e.principal, e.identity.session_id, { earlier: { row: c.auth, at: performance.now(), of: { sessionId: e.identity.session_id, repoRef: undefined } } }).catch((err: unknown) => err);
        answers.push({ state: s.name, http: http.status === 200 ? "ok" : http.body.error.code, authorize: code(direct), claim: code(claim) });
      }
      expect(answers).toEqual(STATES.map((s) => ({ state: s.name, http: s.code, authorize: s.code, claim: s.code })));
    } finally {
      await srv.close();
    }
  });
});

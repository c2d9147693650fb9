/**
 * The authorization gateway (core/authorize.ts): checks asked while a read is in flight share
 * the next statement, yet each gets exactly its own answer from a read that started after it
 * was asked; an earlier read (the claim's) stands in for a new one only while it is fresh; a
 * malformed session ID is refused without a read. Counted on a store that records every read.
 */
import { expect, it } from "vitest";
import { authorize, authorizeAll, EARLIER_READ_FRESH_MS, type AuthQuery, type AuthorizeRequest } from "../../core/authorize";
import { ManualClock } from "../../core/clock";
import { AppError } from "../../core/errors";
import type { IdentityStore } from "../../core/identity-store";
import { revokeSession } from "../../core/registry/registry";
import { identityStore } from "../../db/sql/identity/store";
import { describeEachDatabase } from "../support/databases";
import { seedExecution } from "../support/jobs";

/** The identity store over `db`, recording the queries of each authorization read it sends. */
function countingStore(store: IdentityStore, onRead?: (n: number) => void): { store: IdentityStore; reads: AuthQuery[][] } {
  const reads: AuthQuery[][] = [];
  const counted = Object.create(store) as IdentityStore;
  counted.readAuthorization = (queries) => {
    reads.push([...queries]);
    onRead?.(reads.length);
    return store.readAuthorization(queries);
  };
  return { store: counted, reads };
}

const code = (x: unknown) => (x instanceof AppError ? x.code : "ok");

await describeEachDatabase("the authorization gateway", (t) => {
  it("checks asked together share one statement, those asked while it is in flight the next; each answered as if alone", async () => {
    const clock = new ManualClock(Date.now());
    const ok = await seedExecution(t().db, clock);
    const revoked = await seedExecution(t().db, clock);
    await revokeSession(identityStore(t().db), clock, { ...revoked.principal, role: "member" }, revoked.identity.session_id);
    const check = (e: typeof ok) => authorize(store, clock, e.principal, e.identity.session_id).catch((err: unknown) => err);
    let meanwhile: Array<Promise<unknown>> = [];
    // Two more checks asked while the first read is in flight.
    const { store, reads } = countingStore(identityStore(t().db), (n) => {
      if (n === 1) meanwhile = [check(revoked), check(ok)];
    });
    const asks = Array.from({ length: 20 }, (_, i) => (i % 4 === 3 ? revoked : ok));
    const answers = await Promise.all(asks.map(check));
    expect(answers.map(code)).toEqual(asks.map((e) => (e === ok ? "ok" : "session_revoked")));
    for (const [i, a] of answers.entries()) if (!(a instanceof AppError)) expect((a as { identity: unknown }).identity).toEqual(asks[i]!.identity);
    expect((await Promise.all(meanwhile)).map(code)).toEqual(["session_revoked", "ok"]);
    expect(reads.map((r) => r.length)).toEqual([20, 2]);
  });

  it("a group asked at once is one read; a refusal is thrown by its own promise only", async () => {
    const clock = new ManualClock(Date.now());
    const ok = await seedExecution(t().db, clock);
    const { store, reads } = countingStore(identityStore(t().db));
    const reqs: AuthorizeRequest[] = [
      { principal: ok.principal, sessionId: ok.identity.session_id },
      { principal: ok.principal, sessionId: ok.identity.session_id, repo: { ref: ok.account.repoId, level: "admin" } },
      { principal: ok.principal, sessionId: "not a valid id" },
      { principal: ok.principal, sessionId: ok.identity.session_id, repo: { ref: ok.account.repoId, level: "read" } },
    ];
    const answers = await Promise.allSettled(authorizeAll(store, clock, reqs));
    expect(answers.map((a) => (a.status === "fulfilled" ? "ok" : code(a.reason)))).toEqual(["ok", "repo_permission_denied", "invalid_session_header", "ok"]);
    // One statement for the group; the malformed session ID is refused by the first rule, never sent.
    expect(reads.map((r) => r.map((q) => q.sessionId))).toEqual([[ok.identity.session_id, ok.identity.session_id, ok.identity.session_id]]);
  });

  it("an earlier read stands in for a new one only while it is fresh: a stale one is read again and sees the revocation", async () => {
    const clock = new ManualClock(Date.now());
    const e = await seedExecution(t().db, clock);
    const root = identityStore(t().db);
    const [before] = await root.readAuthorization([{ credential: { kind: "principal", ...e.principal }, sessionId: e.identity.session_id }]);
    await revokeSession(root, clock, { ...e.principal, role: "member" }, e.identity.session_id);
    const { store, reads } = countingStore(root);
    // Fresh: the rules over the earlier row (read before the revocation), no statement.
    const of = { sessionId: e.identity.session_id, repoRef: undefined };
    const fresh = await authorize(store, clock, e.principal, e.identity.session_id, { earlier: { row: before, at: performance.now(), of } });
    expect(fresh.identity).toEqual(e.identity);
    expect(reads).toHaveLength(0);
    // Older than the limit: read again, and refused.
    const stale = { row: before, at: performance.now() - EARLIER_READ_FRESH_MS - 1, of };
    await expect(authorize(store, clock, e.principal, e.identity.session_id, { earlier: stale })).rejects.toMatchObject({ code: "session_revoked" });
    expect(reads).toHaveLength(1);
    // Fresh but read for something else — another session, or no repository where one is asked: read again.
    const other = await seedExecution(t().db, clock);
    await expect(authorize(store, clock, other.principal, other.identity.session_id, { earlier: { row: before, at: performance.now(), of } })).resolves.toMatchObject({ identity: other.identity });
    await expect(
      authorize(store, clock, e.principal, e.identity.session_id, { repo: { ref: e.account.repoId, level: "read" }, earlier: { row: before, at: performance.now(), of } }),
    ).rejects.toMatchObject({ code: "session_revoked" });
    expect(reads).toHaveLength(3);
  });
});

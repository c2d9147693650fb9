/** Job-test helpers: a registered execution (account + binding) and small kinds/handlers over real stores. */
import { z } from "zod";
import type { Principal } from "../../core/authorize";
import type { Clock } from "../../core/clock";
import { makeIdentity, type Identity } from "../../core/execution/identity";
import { registerSession } from "../../core/registry/registry";
import type { Db } from "../../db/schema";
import { enqueueJob } from "../../queues/sql/enqueueJob";
import type { JobRow, Pool } from "../../queues/jobs";
import { seedAccount, uniq, type Account } from "./fixtures";
import { identityStore } from "../../db/sql/identity/store";

export interface Execution {
  account: Account;
  identity: Identity;
  principal: Principal;
}

export async function seedExecution(db: Db, clock: Clock, opts: { account?: Account } = {}): Promise<Execution> {
  const account = opts.account ?? (await seedAccount(db));
  const principal: Principal = { orgId: account.orgId, userId: account.userId, apiKeyId: account.keyId, loginSessionId: null };
  const sessionId = uniq("sess");
  await registerSession(identityStore(db), clock, principal, sessionId);
  const identity = makeIdentity({ tenant_id: account.orgId, subject_id: account.userId, session_id: sessionId, parent_session_id: sessionId });
  return { account, identity, principal };
}

export const anyParams = z.record(z.string(), z.unknown());

export async function enqueueFor(
  db: Db,
  clock: Clock,
  e: Execution,
  o: { kind?: string; pool?: Pool; restartable?: boolean; maxAttempts?: number; params?: unknown; repoId?: string | null } = {},
): Promise<JobRow> {
  const row = await enqueueJob(db, clock.now(), {
    kind: o.kind ?? "test.noop",
    pool: o.pool ?? "ai",
    params: o.params ?? {},
    repoId: o.repoId === undefined ? e.account.repoId : o.repoId,
    restartable: o.restartable ?? true,
    maxAttempts: o.maxAttempts ?? 3,
    identity: e.identity,
    actor: { userId: e.principal.userId, apiKeyId: e.principal.apiKeyId, loginSessionId: e.principal.loginSessionId },
  });
  if (!row) throw new Error("not enqueued");
  return row;
}

export async function waitFor<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 15_000, stepMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export async function jobRow(db: Db, id: string): Promise<JobRow> {
  return db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

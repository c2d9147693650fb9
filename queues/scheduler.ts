/**
 * Persisted schedules (JOB-7). Each tick, in one transaction: take the due
 * schedules (locked, advanced) and enqueue one job for each, carrying the
 * schedule's stored identity. Fail-closed rules:
 * - a system schedule may only start a system kind, and a user schedule only a
 *   user kind;
 * - a user schedule without a complete, valid identity and principal (a legacy
 *   row) starts nothing and is disabled with `identity_missing`;
 * - a schedule whose accounts are gone still enqueues, and the runner's
 *   authorize() refuses it before any work (the job ends `refused`).
 * At most one live job per schedule (a unique index): a slow run is not stacked.
 */
import type { Principal } from "../core/authorize";
import { makeIdentity, type Identity } from "../core/execution/identity";
import type { Db } from "../db/schema";
import { inTransaction } from "../core/transaction";
import type { JobRow, ScheduleRow } from "./jobs";
import type { JobRegistry } from "./registry";
import { enqueueJob } from "./sql/enqueueJob";
import { recordScheduleOutcome } from "./sql/recordScheduleOutcome";
import { takeDueSchedules } from "./sql/takeDueSchedules";

export interface ScheduleFiring {
  scheduleId: string;
  job?: JobRow;
  refused?: string;
}

function scheduleIdentity(s: ScheduleRow): { identity: Identity; principal: Principal } | undefined {
  try {
    const identity = makeIdentity(s);
    if (!s.actor_user_id || s.actor_user_id !== s.subject_id) return undefined;
    if (s.api_key_id === null && s.login_session_id === null) return undefined;
    return { identity, principal: { orgId: identity.tenant_id, userId: s.actor_user_id, apiKeyId: s.api_key_id, loginSessionId: s.login_session_id } };
  } catch {
    return undefined;
  }
}

export async function fireDueSchedules(db: Db, registry: JobRegistry, now: Date): Promise<ScheduleFiring[]> {
  return inTransaction(db, async (tx) => {
    const out: ScheduleFiring[] = [];
    for (const s of await takeDueSchedules(tx, { now })) {
      const def = registry.get(s.kind);
      let refused: string | undefined;
      let who: ReturnType<typeof scheduleIdentity>;
      if (!def) refused = "unknown_kind";
      else if (s.system !== (def.system === true)) refused = "schedule_kind_mismatch";
      else if (!s.system) {
        who = scheduleIdentity(s);
        if (!who) refused = "identity_missing";
      }
      if (refused || !def) {
        await recordScheduleOutcome(tx, { id: s.id, jobId: null, errorCode: refused ?? "unknown_kind", disable: true });
        out.push({ scheduleId: s.id, refused: refused ?? "unknown_kind" });
        continue;
      }
      const job = await enqueueJob(tx, now, {
        kind: def.kind,
        pool: def.pool,
        params: s.params,
        repoId: s.repo_id,
        restartable: def.restartable,
        maxAttempts: def.maxAttempts,
        identity: who?.identity ?? null,
        actor: who ? { userId: who.principal.userId, apiKeyId: who.principal.apiKeyId, loginSessionId: who.principal.loginSessionId } : null,
        scheduleId: s.id,
        dispatched: false,
      });
      if (job) await recordScheduleOutcome(tx, { id: s.id, jobId: job.id, errorCode: null, disable: false });
      out.push(job ? { scheduleId: s.id, job } : { scheduleId: s.id });
    }
    return out;
  });
}

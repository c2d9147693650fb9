/**
 * Submission caps (docs/jobs.md "Caps"): per organisation and per session, the most queued jobs
 * of a pool. A submission that would pass a cap is refused with 429 `rate_limited`, naming the
 * limit (`jobs_queued_per_org` or `jobs_queued_per_session`), its maximum and the pool, with a
 * Retry-After: the refusal is temporary — it clears as the backlog runs. The caps on *running*
 * jobs are the claim's (queues/sql/fairShare.ts), since a running job is not the submitter's
 * to hold back.
 *
 * `admit` is the rule, pure: given the queued counts read by the flush (countQueued) and the
 * flush's submissions in order, it admits each while its organisation's and its session's count
 * stay within the caps, counting the ones it admitted. Caps are checked per flush, and the
 * capped flushes of one process count and insert in turn (queues/submit.ts), so they hold within
 * a process: two API nodes submitting for one organisation at the same instant can overshoot by
 * the size of one flush each.
 */
import { AppError } from "../core/errors";
import type { QueuedCount } from "./sql/countQueued";

export type PoolLimits = Partial<Record<string, number>>;

export interface QueuedCaps {
  perOrg?: PoolLimits;
  perSession?: PoolLimits;
}

export type QueuedLimit = "jobs_queued_per_org" | "jobs_queued_per_session";

export interface CapRequest {
  pool: string;
  org: string;
  session: string;
}

/** How long a refused submitter is told to wait: the backlog drains at the pool's pace, not ours. */
export const QUEUED_RETRY_AFTER_S = 5;

export function capsApply(caps: QueuedCaps | undefined, pool: string): boolean {
  return caps?.perOrg?.[pool] !== undefined || caps?.perSession?.[pool] !== undefined;
}

/** Per request: undefined (admitted) or the limit it would pass. */
export function admit(caps: QueuedCaps, counts: readonly QueuedCount[], reqs: readonly CapRequest[]): Array<{ limit: QueuedLimit; max: number } | undefined> {
  const org = new Map<string, number>();
  const ses = new Map<string, number>();
  const okey = (pool: string, o: string) => JSON.stringify([pool, o]);
  const skey = (pool: string, o: string, s: string) => JSON.stringify([pool, o, s]);
  for (const c of counts) {
    org.set(okey(c.pool, c.tenant_id), (org.get(okey(c.pool, c.tenant_id)) ?? 0) + c.n);
    ses.set(skey(c.pool, c.tenant_id, c.session_id), c.n);
  }
  return reqs.map((r) => {
    const o = okey(r.pool, r.org);
    const s = skey(r.pool, r.org, r.session);
    const maxOrg = caps.perOrg?.[r.pool];
    const maxSes = caps.perSession?.[r.pool];
    if (maxSes !== undefined && (ses.get(s) ?? 0) >= maxSes) return { limit: "jobs_queued_per_session" as const, max: maxSes };
    if (maxOrg !== undefined && (org.get(o) ?? 0) >= maxOrg) return { limit: "jobs_queued_per_org" as const, max: maxOrg };
    org.set(o, (org.get(o) ?? 0) + 1);
    ses.set(s, (ses.get(s) ?? 0) + 1);
    return undefined;
  });
}

export function queuedLimitError(pool: string, limit: QueuedLimit, max: number): AppError {
  return new AppError("rate_limited", {
    message: `Too many queued jobs: ${limit} (max ${max} in pool ${pool}); retry after the time in Retry-After.`,
    details: { limit, max, pool, retry_after_s: QUEUED_RETRY_AFTER_S },
  });
}

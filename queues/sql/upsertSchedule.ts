/**
 * upsertSchedule: creates a persisted schedule (JOB-7) or updates its kind,
 * params and interval. A user schedule stores the full identity and the
 * principal's ids; a system schedule stores none.
 */
import type { Identity } from "../../core/execution/identity";
import { redactJson } from "../../core/redact";
import type { Db } from "../../db/schema";

export interface ScheduleSpec {
  id: string;
  kind: string;
  params: unknown;
  intervalMs: number;
  repoId?: string | null;
  /** null = a system schedule (system kinds only). */
  identity: Identity | null;
  actor: { userId: string; apiKeyId: string | null; loginSessionId: string | null } | null;
  firstRunAt: Date;
}

export async function upsertSchedule(db: Db, now: Date, s: ScheduleSpec): Promise<void> {
  await db
    .insertInto("job_schedules")
    .values({
      id: s.id,
      kind: s.kind,
      params: JSON.stringify(redactJson(s.params ?? {})),
      repo_id: s.repoId ?? null,
      interval_ms: s.intervalMs,
      system: s.identity === null,
      tenant_id: s.identity?.tenant_id ?? null,
      subject_id: s.identity?.subject_id ?? null,
      session_id: s.identity?.session_id ?? null,
      parent_session_id: s.identity?.parent_session_id ?? null,
      actor_user_id: s.actor?.userId ?? null,
      api_key_id: s.actor?.apiKeyId ?? null,
      login_session_id: s.actor?.loginSessionId ?? null,
      enabled: true,
      next_run_at: s.firstRunAt,
      created_at: now,
    })
    .onConflict((oc) =>
      oc.column("id").doUpdateSet((eb) => ({ kind: eb.ref("excluded.kind"), params: eb.ref("excluded.params"), interval_ms: eb.ref("excluded.interval_ms") })),
    )
    .execute();
}

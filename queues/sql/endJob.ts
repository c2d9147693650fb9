/**
 * endJob: running → a terminal state, fenced by the lease token — the one
 * statement behind every single-job ending: `succeeded` (finishJob, with the
 * result), and without retry `canceled`, `refused`, `abandoned`, `failed`
 * (a refused recheck, a cancel, a non-restartable job that cannot continue).
 * Returns false if the lease was lost. The result is stored redacted
 * (core/redact.ts redactJson).
 */
import { redactJson } from "../../core/redact";
import type { Db, Tx } from "../../db/schema";

export type EndStatus = "succeeded" | "canceled" | "refused" | "abandoned" | "failed";

export async function endJob(
  db: Db | Tx,
  o: { id: string; token: string; now: Date; status: EndStatus; errorCode: string | null; errorMessage?: string | null; result?: unknown },
): Promise<boolean> {
  const r = await db
    .updateTable("jobs")
    .set({
      status: o.status,
      ...(o.result !== undefined ? { result: o.result === null ? null : JSON.stringify(redactJson(o.result)) } : {}),
      error_code: o.errorCode,
      error_message: o.errorMessage ?? null,
      lease_owner: null,
      lease_token: null,
      lease_expires_at: null,
      finished_at: o.now,
      updated_at: o.now,
    })
    .where("id", "=", o.id)
    .where("lease_token", "=", o.token)
    .where("status", "=", "running")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** recordScheduleOutcome: the job a schedule fired, or the code it failed closed with (and then it stays disabled). */
import type { Tx } from "../../db/schema";

export async function recordScheduleOutcome(
  tx: Tx,
  o: { id: string; jobId: string | null; errorCode: string | null; disable: boolean },
): Promise<void> {
  await tx
    .updateTable("job_schedules")
    .set({
      last_error_code: o.errorCode,
      ...(o.jobId ? { last_job_id: o.jobId } : {}),
      ...(o.disable ? { enabled: false } : {}),
    })
    .where("id", "=", o.id)
    .execute();
}

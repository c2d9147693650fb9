/**
 * insertUpload: stores an uploaded archive within its bounds. In one transaction: the organisation's row
 * lock (racing uploads cannot overshoot), the organisation's live bytes and the session's live uploads
 * handed to `check` (core/ingest/uploads.ts, which throws to refuse), then the insert.
 */
import { inTransaction } from "../../../core/transaction";
import type { UploadRow } from "../../../core/ingest/upload-store";
import type { Db } from "../../schema";

export async function insertUpload(db: Db, row: UploadRow, check: (live: { bytes: number; mine: number }) => void): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx.selectFrom("organizations").select("id").where("id", "=", row.tenant_id).forUpdate().executeTakeFirstOrThrow();
    const live = await tx
      .selectFrom("ingest_uploads")
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<string>("size"), eb.lit(0)).as("bytes"),
        eb.fn.countAll<string>().filterWhere((w) => w.and([w("session_id", "=", row.session_id), w("ingested_at", "is", null)])).as("mine"),
      ])
      .where("tenant_id", "=", row.tenant_id)
      .where("expires_at", ">", row.created_at)
      .executeTakeFirstOrThrow();
    check({ bytes: Number(live.bytes), mine: Number(live.mine) });
    await tx.insertInto("ingest_uploads").values(row).execute();
  });
}

/** countBindings: an organisation's bindings — all it retains (tombstones included), and those live at `now`. */
import { sql } from "kysely";
import type { Db } from "../../schema";

export async function countBindings(db: Db, orgId: string, now: Date): Promise<{ retained: number; active: number }> {
  const counts = await db
    .selectFrom("session_bindings")
    .select([
      sql<string>`count(*)`.as("retained"),
      sql<string>`count(*) filter (where tombstoned_at is null and expires_at > ${now})`.as("active"),
    ])
    .where("org_id", "=", orgId)
    .executeTakeFirstOrThrow();
  return { retained: Number(counts.retained), active: Number(counts.active) };
}

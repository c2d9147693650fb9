/** upsertRepoPermission: grants the level on the repository, or sets the level of the grant there is. */
import type { RepoLevel } from "../../../core/identity-store";
import type { Db } from "../../schema";

export async function upsertRepoPermission(db: Db, row: { repoId: string; userId: string; level: RepoLevel }): Promise<void> {
  await db
    .insertInto("repo_permissions")
    .values({ repo_id: row.repoId, user_id: row.userId, level: row.level })
    .onConflict((oc) => oc.columns(["repo_id", "user_id"]).doUpdateSet({ level: row.level }))
    .execute();
}

/** repositoryExists: whether a repository has this id. */
import type { Db } from "../../schema";

export async function repositoryExists(db: Db, repoId: string): Promise<boolean> {
  return (await db.selectFrom("repositories").select("id").where("id", "=", repoId).executeTakeFirst()) !== undefined;
}

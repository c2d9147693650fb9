/**
 * Account rows (REG-1): organisations, users, memberships, repositories and
 * repository permissions. One store operation per function.
 */
import { AppError } from "../errors";
import { hashPassword, randomId } from "../crypto";
import type { Db, RepoLevel, Role } from "../../db/schema";

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export async function createOrg(db: Db, input: { name: string }): Promise<{ org_id: string }> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) throw new AppError("validation_failed", { details: { field: "name" } });
  const id = randomId("org");
  await db.insertInto("organizations").values({ id, name, suspended_at: null }).execute();
  return { org_id: id };
}

export async function createUser(
  db: Db,
  input: { email: string; password?: string | undefined; platformAdmin?: boolean },
): Promise<{ user_id: string }> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new AppError("validation_failed", { details: { field: "email" } });
  if (input.password !== undefined && (input.password.length < 8 || input.password.length > 1024)) {
    throw new AppError("validation_failed", { message: "The password must be 8 to 1024 characters.", details: { field: "password" } });
  }
  const existing = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  if (existing) throw new AppError("conflict", { message: "A user with this email exists." });
  const id = randomId("usr");
  await db
    .insertInto("users")
    .values({
      id,
      email,
      password_hash: input.password === undefined ? null : await hashPassword(input.password),
      is_platform_admin: input.platformAdmin ?? false,
      suspended_at: null,
    })
    .execute();
  return { user_id: id };
}

async function requireRow(found: unknown, what: "org" | "user" | "repo"): Promise<void> {
  if (!found) throw new AppError(what === "repo" ? "repo_not_found" : "not_found", { message: `No such ${what}.` });
}

export async function addMember(db: Db, input: { orgId: string; userId: string; role: Role }): Promise<{ org_id: string; user_id: string; role: Role }> {
  await requireRow(await db.selectFrom("organizations").select("id").where("id", "=", input.orgId).executeTakeFirst(), "org");
  await requireRow(await db.selectFrom("users").select("id").where("id", "=", input.userId).executeTakeFirst(), "user");
  await db
    .insertInto("memberships")
    .values({ org_id: input.orgId, user_id: input.userId, role: input.role, suspended_at: null })
    .onConflict((oc) => oc.columns(["org_id", "user_id"]).doUpdateSet({ role: input.role }))
    .execute();
  return { org_id: input.orgId, user_id: input.userId, role: input.role };
}

export async function createRepo(db: Db, input: { orgId: string; name: string }): Promise<{ repo_id: string }> {
  const name = input.name.trim();
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name)) {
    throw new AppError("validation_failed", { message: "Repository names are 1-100 letters, digits, '.', '_' or '-'.", details: { field: "name" } });
  }
  await requireRow(await db.selectFrom("organizations").select("id").where("id", "=", input.orgId).executeTakeFirst(), "org");
  const clash = await db.selectFrom("repositories").select("id").where("org_id", "=", input.orgId).where("name", "=", name).executeTakeFirst();
  if (clash) throw new AppError("conflict", { message: "A repository with this name exists in the organisation." });
  const id = randomId("repo");
  await db.insertInto("repositories").values({ id, org_id: input.orgId, name }).execute();
  return { repo_id: id };
}

export async function grantRepo(db: Db, input: { repoId: string; userId: string; level: RepoLevel }): Promise<{ repo_id: string; user_id: string; level: RepoLevel }> {
  await requireRow(await db.selectFrom("repositories").select("id").where("id", "=", input.repoId).executeTakeFirst(), "repo");
  await requireRow(await db.selectFrom("users").select("id").where("id", "=", input.userId).executeTakeFirst(), "user");
  await db
    .insertInto("repo_permissions")
    .values({ repo_id: input.repoId, user_id: input.userId, level: input.level })
    .onConflict((oc) => oc.columns(["repo_id", "user_id"]).doUpdateSet({ level: input.level }))
    .execute();
  return { repo_id: input.repoId, user_id: input.userId, level: input.level };
}

export async function suspendUser(db: Db, input: { userId: string; at: Date }): Promise<{ user_id: string; suspended: true }> {
  const r = await db.updateTable("users").set({ suspended_at: input.at }).where("id", "=", input.userId).executeTakeFirst();
  await requireRow(Number(r.numUpdatedRows) > 0, "user");
  return { user_id: input.userId, suspended: true };
}

export async function suspendMember(db: Db, input: { orgId: string; userId: string; at: Date }): Promise<{ org_id: string; user_id: string; suspended: true }> {
  const r = await db
    .updateTable("memberships")
    .set({ suspended_at: input.at })
    .where("org_id", "=", input.orgId)
    .where("user_id", "=", input.userId)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw new AppError("not_found", { message: "No such membership." });
  return { org_id: input.orgId, user_id: input.userId, suspended: true };
}

export async function suspendOrg(db: Db, input: { orgId: string; at: Date }): Promise<{ org_id: string; suspended: true }> {
  const r = await db.updateTable("organizations").set({ suspended_at: input.at }).where("id", "=", input.orgId).executeTakeFirst();
  await requireRow(Number(r.numUpdatedRows) > 0, "org");
  return { org_id: input.orgId, suspended: true };
}

/** Removes a membership entirely (membership revocation). */
export async function removeMember(db: Db, input: { orgId: string; userId: string }): Promise<void> {
  await db.deleteFrom("memberships").where("org_id", "=", input.orgId).where("user_id", "=", input.userId).execute();
}

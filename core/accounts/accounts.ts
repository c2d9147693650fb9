/**
 * Account rows (REG-1): organisations, users, memberships, repositories and
 * repository permissions. One store operation per function: the rules here,
 * the statements behind IdentityStore.
 */
import { AppError } from "../errors";
import { hashPassword, randomId } from "../crypto";
import type { IdentityStore, RepoLevel, Role } from "../identity-store";

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export async function createOrg(store: IdentityStore, input: { name: string }): Promise<{ org_id: string }> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) throw new AppError("validation_failed", { details: { field: "name" } });
  const id = randomId("org");
  await store.insertOrganization({ id, name });
  return { org_id: id };
}

export async function createUser(
  store: IdentityStore,
  input: { email: string; password?: string | undefined; platformAdmin?: boolean },
): Promise<{ user_id: string }> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new AppError("validation_failed", { details: { field: "email" } });
  if (input.password !== undefined && (input.password.length < 8 || input.password.length > 1024)) {
    throw new AppError("validation_failed", { message: "The password must be 8 to 1024 characters.", details: { field: "password" } });
  }
  if ((await store.userIdByEmail(email)) !== undefined) throw new AppError("conflict", { message: "A user with this email exists." });
  const id = randomId("usr");
  await store.insertUser({
    id,
    email,
    passwordHash: input.password === undefined ? null : await hashPassword(input.password),
    platformAdmin: input.platformAdmin ?? false,
  });
  return { user_id: id };
}

function requireRow(found: boolean, what: "org" | "user" | "repo"): void {
  if (!found) throw new AppError(what === "repo" ? "repo_not_found" : "not_found", { message: `No such ${what}.` });
}

export async function addMember(store: IdentityStore, input: { orgId: string; userId: string; role: Role }): Promise<{ org_id: string; user_id: string; role: Role }> {
  requireRow(await store.organizationExists(input.orgId), "org");
  requireRow(await store.userExists(input.userId), "user");
  await store.upsertMembership(input);
  return { org_id: input.orgId, user_id: input.userId, role: input.role };
}

export async function createRepo(store: IdentityStore, input: { orgId: string; name: string }): Promise<{ repo_id: string }> {
  const name = input.name.trim();
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name)) {
    throw new AppError("validation_failed", { message: "Repository names are 1-100 letters, digits, '.', '_' or '-'.", details: { field: "name" } });
  }
  requireRow(await store.organizationExists(input.orgId), "org");
  if ((await store.repositoryIdByName(input.orgId, name)) !== undefined) {
    throw new AppError("conflict", { message: "A repository with this name exists in the organisation." });
  }
  const id = randomId("repo");
  await store.insertRepository({ id, orgId: input.orgId, name });
  return { repo_id: id };
}

export async function grantRepo(
  store: IdentityStore,
  input: { repoId: string; userId: string; level: RepoLevel },
): Promise<{ repo_id: string; user_id: string; level: RepoLevel }> {
  requireRow(await store.repositoryExists(input.repoId), "repo");
  requireRow(await store.userExists(input.userId), "user");
  await store.upsertRepoPermission(input);
  return { repo_id: input.repoId, user_id: input.userId, level: input.level };
}

export async function suspendUser(store: IdentityStore, input: { userId: string; at: Date }): Promise<{ user_id: string; suspended: true }> {
  requireRow(await store.suspendUser(input.userId, input.at), "user");
  return { user_id: input.userId, suspended: true };
}

export async function suspendMember(store: IdentityStore, input: { orgId: string; userId: string; at: Date }): Promise<{ org_id: string; user_id: string; suspended: true }> {
  if (!(await store.suspendMembership(input.orgId, input.userId, input.at))) throw new AppError("not_found", { message: "No such membership." });
  return { org_id: input.orgId, user_id: input.userId, suspended: true };
}

export async function suspendOrg(store: IdentityStore, input: { orgId: string; at: Date }): Promise<{ org_id: string; suspended: true }> {
  requireRow(await store.suspendOrganization(input.orgId, input.at), "org");
  return { org_id: input.orgId, suspended: true };
}

/** Removes a membership entirely (membership revocation). */
export async function removeMember(store: IdentityStore, input: { orgId: string; userId: string }): Promise<void> {
  await store.deleteMembership(input.orgId, input.userId);
}

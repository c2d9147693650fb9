/**
 * The relational IdentityStore (core/identity-store.ts): each verb is its own
 * statement in this folder, run on the handle the store is bound to — the root
 * handle, or the transaction `transaction` opened (or was already inside).
 */
import type { IdentityStore } from "../../../core/identity-store";
import { inTransaction } from "../../../core/transaction";
import type { Db } from "../../schema";
import { apiKeyExists } from "./apiKeyExists";
import { countBindings } from "./countBindings";
import { deleteMembership } from "./deleteMembership";
import { endLoginSession } from "./endLoginSession";
import { expireDueBindings } from "./expireDueBindings";
import { findBinding } from "./findBinding";
import { insertApiKey } from "./insertApiKey";
import { insertAuditEntry } from "./insertAuditEntry";
import { insertBinding } from "./insertBinding";
import { insertLoginSession } from "./insertLoginSession";
import { insertOrganization } from "./insertOrganization";
import { insertRepository } from "./insertRepository";
import { insertUser } from "./insertUser";
import { lockOrganization } from "./lockOrganization";
import { membershipRole } from "./membershipRole";
import { organizationExists } from "./organizationExists";
import { readAuthorization } from "./readAuthorization";
import { repositoryExists } from "./repositoryExists";
import { repositoryIdByName } from "./repositoryIdByName";
import { revokeApiKey } from "./revokeApiKey";
import { revokeBinding } from "./revokeBinding";
import { revokeDashboardBindings } from "./revokeDashboardBindings";
import { suspendMembership } from "./suspendMembership";
import { suspendOrganization } from "./suspendOrganization";
import { suspendUser } from "./suspendUser";
import { tombstoneExpiredBinding } from "./tombstoneExpiredBinding";
import { upsertMembership } from "./upsertMembership";
import { upsertRepoPermission } from "./upsertRepoPermission";
import { userExists } from "./userExists";
import { userForLogin } from "./userForLogin";
import { userIdByEmail } from "./userIdByEmail";

/** One store per handle: the hot paths (every submission's and every job's authorization) ask for it per call. */
const stores = new WeakMap<Db, IdentityStore>();

export function identityStore(db: Db): IdentityStore {
  let store = stores.get(db);
  if (!store) stores.set(db, (store = bind(db)));
  return store;
}

function bind(db: Db): IdentityStore {
  return {
    transaction: (fn) => inTransaction(db, (tx) => fn(identityStore(tx))),
    insertOrganization: (row) => insertOrganization(db, row),
    organizationExists: (orgId) => organizationExists(db, orgId),
    suspendOrganization: (orgId, at) => suspendOrganization(db, orgId, at),
    insertUser: (row) => insertUser(db, row),
    userExists: (userId) => userExists(db, userId),
    userIdByEmail: (email) => userIdByEmail(db, email),
    suspendUser: (userId, at) => suspendUser(db, userId, at),
    upsertMembership: (row) => upsertMembership(db, row),
    membershipRole: (orgId, userId) => membershipRole(db, orgId, userId),
    suspendMembership: (orgId, userId, at) => suspendMembership(db, orgId, userId, at),
    deleteMembership: (orgId, userId) => deleteMembership(db, orgId, userId),
    insertRepository: (row) => insertRepository(db, row),
    repositoryExists: (repoId) => repositoryExists(db, repoId),
    repositoryIdByName: (orgId, name) => repositoryIdByName(db, orgId, name),
    upsertRepoPermission: (row) => upsertRepoPermission(db, row),
    insertApiKey: (row) => insertApiKey(db, row),
    revokeApiKey: (prefix, at) => revokeApiKey(db, prefix, at),
    apiKeyExists: (prefix) => apiKeyExists(db, prefix),
    userForLogin: (email) => userForLogin(db, email),
    insertLoginSession: (row) => insertLoginSession(db, row),
    endLoginSession: (tokenHash, at) => endLoginSession(db, tokenHash, at),
    insertAuditEntry: (e) => insertAuditEntry(db, e),
    lockOrganization: (orgId) => lockOrganization(db, orgId),
    findBinding: (sessionId) => findBinding(db, sessionId),
    countBindings: (orgId, now) => countBindings(db, orgId, now),
    insertBinding: (row) => insertBinding(db, row),
    tombstoneExpiredBinding: (sessionId, now) => tombstoneExpiredBinding(db, sessionId, now),
    revokeBinding: (sessionId, now) => revokeBinding(db, sessionId, now),
    revokeDashboardBindings: (loginSessionId, now) => revokeDashboardBindings(db, loginSessionId, now),
    expireDueBindings: (now, limit) => expireDueBindings(db, now, limit),
    readAuthorization: (queries) => readAuthorization(db, queries),
  };
}

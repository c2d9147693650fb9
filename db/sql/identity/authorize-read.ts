/**
 * THE authorization read (core/authorize.ts): one query text over a relation `q` of queries, one
 * row each:
 *   q(i, session_id, org_id, user_id, api_key_id, key_prefix, login_session_id, login_token_hash, repo_ref)
 * A presented API key fills key_prefix (its hash is compared in memory), a browser cookie fills
 * login_token_hash (and org_id from its header), a recorded principal (a job row) fills org_id,
 * user_id and its credential's id. ./readAuthorization.ts builds `q` from a VALUES list; the job
 * claim builds it from the rows it just claimed (queues/sql/claimJobs.ts), so the recheck before
 * work costs no extra round trip — which is why this fragment is a module of its own that the
 * claim may import.
 */
import { sql } from "kysely";
import type { AuthRow } from "../../../core/authorize-rules";

/** The columns of `q`, in order. */
export const AUTHORIZE_INPUT = ["i", "session_id", "org_id", "user_id", "api_key_id", "key_prefix", "login_session_id", "login_token_hash", "repo_ref"] as const;

/** The columns the statement yields per query (besides q.i), in AuthRow's names. */
export const AUTHORIZE_COLUMNS = [
  "key_id", "key_hash", "key_org_id", "key_user_id", "key_revoked_at",
  "login_id", "login_user_id", "login_revoked_at", "login_expires_at",
  "user_id", "user_email", "user_is_platform_admin", "user_suspended_at",
  "org_id", "org_name", "org_suspended_at", "membership_role", "membership_suspended_at", "memberships",
  "binding_org_id", "binding_user_id", "binding_expires_at", "binding_tombstone_reason", "binding_tombstoned_at", "binding_kind", "binding_login_session_id",
  "repo_id", "repo_name", "repo_org_id", "repo_level",
] as const satisfies ReadonlyArray<keyof AuthRow>;

/**
 * THE authorization read, over a relation `q` (AUTHORIZE_INPUT) in scope.
 * The organisation asked for is the key's, else q.org_id (a recorded tenant
 * or a browser's header), else a browser's memberships decide (the rules
 * refuse anything but exactly one).
 */
export const AUTHORIZE_READ = sql`select q.i,
       k.id as key_id, k.key_hash, k.org_id as key_org_id, k.user_id as key_user_id, k.revoked_at as key_revoked_at,
       ls.id as login_id, ls.user_id as login_user_id, ls.revoked_at as login_revoked_at, ls.expires_at as login_expires_at,
       u.id as user_id, u.email as user_email, u.is_platform_admin as user_is_platform_admin, u.suspended_at as user_suspended_at,
       o.id as org_id, o.name as org_name, o.suspended_at as org_suspended_at,
       m.role as membership_role, m.suspended_at as membership_suspended_at, m.n as memberships,
       b.org_id as binding_org_id, b.user_id as binding_user_id, b.expires_at as binding_expires_at,
       b.tombstone_reason as binding_tombstone_reason, b.tombstoned_at as binding_tombstoned_at,
       b.kind as binding_kind, b.login_session_id as binding_login_session_id,
       rr.id as repo_id, rr.name as repo_name, rr.org_id as repo_org_id, rr.level as repo_level
  from q
  left join api_keys k on k.id = q.api_key_id or k.prefix = q.key_prefix
  left join login_sessions ls on ls.id = q.login_session_id or ls.token_hash = q.login_token_hash
  left join users u on u.id = coalesce(k.user_id, ls.user_id, q.user_id)
  left join lateral (
    select m.org_id, m.role, m.suspended_at, count(*) over () as n
      from memberships m
     where m.user_id = u.id and m.org_id = coalesce(k.org_id, q.org_id, m.org_id)
     order by m.org_id
     limit 1
  ) m on true
  left join organizations o on o.id = coalesce(k.org_id, q.org_id, m.org_id)
  left join session_bindings b on b.session_id = q.session_id
  left join lateral (
    select r.id, r.name, r.org_id, rp.level from repositories r
      left join repo_permissions rp on rp.repo_id = r.id and rp.user_id = u.id
     where q.repo_ref is not null and r.org_id = o.id and (r.id = q.repo_ref or r.name = q.repo_ref)
     order by case when r.id = q.repo_ref then 0 else 1 end
     limit 1
  ) rr on true`;


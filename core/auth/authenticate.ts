/**
 * authenticate(): a request's credentials → an Actor, or a typed error.
 * It is core/authorize.ts's statement and rules with no session asked for;
 * `authenticateFor` asks for one in the same statement (the hot path of every
 * execution request). Every call reads the current rows: a revoked key, an
 * ended sign-in or a suspension takes effect on the next request.
 */
import { AppError } from "../errors";
import { identityRefusal } from "../errors-identity";
import { sha256Hex } from "../crypto";
import { API_KEY_PATTERN, apiKeyPrefix } from "../accounts/api-keys";
import { resolveQuery, type Authorized, type Caller, type Credential, type EarlierRead, type RepoAccess } from "../authorize";
import type { Clock } from "../clock";
import type { IdentityStore, RepoLevel, Role } from "../identity-store";

export type AuthKind = "api_key" | "browser";

export interface Actor {
  readonly kind: AuthKind;
  readonly userId: string;
  readonly email: string;
  readonly orgId: string;
  readonly orgName: string;
  readonly role: Role;
  readonly isPlatformAdmin: boolean;
  /** Set for API-key callers. */
  readonly apiKeyId: string | null;
  /** Set for browser callers: the login session row and its token hash (dashboard binding input, HTTP-3). */
  readonly loginSessionId: string | null;
  readonly loginTokenHash: string | null;
}

export interface Credentials {
  /** The `Authorization: Bearer …` value. */
  bearer?: string | undefined;
  /** An Authorization header was sent, but not as `Bearer <token>` (another scheme, or no token). */
  notBearer?: true | undefined;
  /** The sign-in cookie's token. */
  cookieToken?: string | undefined;
  /** `X-CodeSynapse-Org` (browser callers only). */
  orgHeader?: string | undefined;
}

/** The presented credential as the statement's input; malformed ones are refused before any read. */
function credentialOf(creds: Credentials): { credential: Credential; tokenHash: string | null } {
  if (creds.notBearer) throw identityRefusal("authorization_not_bearer");
  if (creds.bearer !== undefined) {
    if (!API_KEY_PATTERN.test(creds.bearer)) throw identityRefusal("api_key_malformed");
    return { credential: { kind: "api_key", prefix: apiKeyPrefix(creds.bearer), hash: sha256Hex(creds.bearer) }, tokenHash: null };
  }
  if (creds.cookieToken !== undefined) {
    if (creds.cookieToken.length < 16 || creds.cookieToken.length > 128) throw identityRefusal("sign_in_unknown");
    const tokenHash = sha256Hex(creds.cookieToken);
    return { credential: { kind: "browser", tokenHash, orgId: creds.orgHeader }, tokenHash };
  }
  throw new AppError("unauthenticated");
}

function actorOf(c: Caller, tokenHash: string | null): Actor {
  return { ...c, loginTokenHash: c.kind === "browser" ? tokenHash : null };
}

/** Verifies a request's bearer token (an API key) or sign-in cookie token and answers who is calling. */
export async function authenticate(store: IdentityStore, clock: Clock, creds: Credentials): Promise<Actor> {
  const { credential, tokenHash } = credentialOf(creds);
  return actorOf((await resolveQuery(store, clock, { credential })).caller, tokenHash);
}

/**
 * authenticate() and authorize() of one primary session — and of the repository the
 * request names, when it names one — in one statement. The repository's answer (its
 * access, or its refusal) is returned, not thrown: the operation that needs it uses it
 * after validating its input.
 */
export async function authenticateFor(
  store: IdentityStore,
  clock: Clock,
  creds: Credentials,
  sessionId: string,
  repo?: { ref: string; level: RepoLevel },
): Promise<{ actor: Actor; authorized: Authorized; repoAnswer?: RepoAccess | AppError; read?: EarlierRead }> {
  const { credential, tokenHash } = credentialOf(creds);
  const r = await resolveQuery(store, clock, { credential, sessionId, ...(repo ? { repo } : {}) }, { deferRepo: true });
  return { actor: actorOf(r.caller, tokenHash), authorized: r.authorized!, ...(r.repoAnswer ? { repoAnswer: r.repoAnswer } : {}), ...(r.read ? { read: r.read } : {}) };
}

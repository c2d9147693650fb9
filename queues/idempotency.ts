/**
 * Idempotent submissions. A submission may carry a client's key
 * (`Idempotency-Key` header, `idempotency_key` tool argument); for 24 h the
 * same execution identity (tenant, subject, session) sending the same key gets
 * the job the first submission created, and the same key with another request
 * (a different kind, repository or parameters) is 409 `idempotency_key_reused`.
 * The key is scoped by the identity: another session's or tenant's key never
 * sees nor collides with this one.
 *
 * Race-safety comes from the primary key (tenant, subject, session, key hash):
 * the submit flush claims its keys (`claimKeys`) and inserts the jobs of the
 * keys it won in ONE transaction. A concurrent claim of the same key (another
 * API node) waits on the unique index until that transaction ends, then finds
 * the live row and loses; a loser reads the winner's row after (`findKeys`) and
 * answers with its job. Duplicates inside one flush are settled before the
 * statement: the first claims, the rest read.
 *
 * What is stored: the SHA-256 of the key (a client may put anything in a key,
 * so the key itself is never stored, logged or counted in a metric) and the
 * SHA-256 of the canonical JSON (RFC 8785) of {kind, repo_id, params}. Only a
 * submission that was accepted holds its key: a refused or invalid one leaves
 * nothing, so the client may retry it with the same key. Expired rows are
 * replaced on the next claim and purged by the cleanup sweep (`idempotencyCleaner`). The statements are
 * queues/sql/ (claimIdempotencyKeys, findIdempotencyKeys, purgeIdempotencyKeys).
 */
import canonicalize from "canonicalize";
import { sha256Hex } from "../core/crypto";
import { AppError } from "../core/errors";
import type { Identity } from "../core/execution/identity";
import { IDEMPOTENCY_KEY_MAX_CHARS, IDEMPOTENCY_TTL_MS } from "../core/limits";
import type { CleanupTarget, SessionCleaner } from "../core/retention/cleaners";
import type { Db, Tx } from "../db/schema";
import { claimIdempotencyKeys } from "./sql/claimIdempotencyKeys";
import { findIdempotencyKeys } from "./sql/findIdempotencyKeys";
import { purgeIdempotencyKeys } from "./sql/purgeIdempotencyKeys";

/** Printable, unquoted, no spaces: UUIDs, ULIDs, base64 and `request-42:retry` all fit. */
const KEY_CHARS = `[A-Za-z0-9._:~+/=-]{1,${IDEMPOTENCY_KEY_MAX_CHARS}}`;
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^${KEY_CHARS}$`);
/** The header as it may be sent: the key, or the key as an RFC 8941 string (in double quotes). */
export const IDEMPOTENCY_HEADER_PATTERN = `^(${KEY_CHARS}|"${KEY_CHARS}")$`;

/**
 * A client's key, checked: undefined when absent, else the key or 400 `idempotency_key_invalid`
 * (whose message never quotes it). The header may be an RFC 8941 string (`"…"`), as the IETF
 * draft writes it; the quotes are not part of the key.
 */
export function parseIdempotencyKey(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== "string") throw new AppError("idempotency_key_invalid");
  const key = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new AppError("idempotency_key_invalid");
  return key;
}

/** What identifies a request under a key: its kind, its resolved repository and its validated parameters. */
export function requestHash(kind: string, repoId: string | null, params: unknown): string {
  return sha256Hex(canonicalize({ kind, repo_id: repoId, params: params ?? {} }) ?? "");
}

export function keyHash(key: string): string {
  return sha256Hex(key);
}

export interface KeyClaim {
  identity: Identity;
  keyHash: string;
  requestHash: string;
  jobId: string;
}

const slot = (identity: Identity, hash: string) => `${identity.tenant_id}\u0000${identity.subject_id}\u0000${identity.session_id}\u0000${hash}`;
export const claimSlot = (c: Pick<KeyClaim, "identity" | "keyHash">) => slot(c.identity, c.keyHash);
const compareSlots = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Claims keys for jobs about to be inserted in the same transaction (the job_id foreign key is
 * deferred). Returns the slots won: a key held by a live row is lost; an expired row is taken
 * over. Claims must name distinct slots (the caller settles duplicates first).
 */
export async function claimKeys(tx: Tx, now: Date, claims: readonly KeyClaim[]): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const expires = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
  // In slot order: a multi-row insert takes its rows' locks in the order it writes them, so two
  // transactions claiming overlapping keys (two submit flushes in flight, two API nodes) wait
  // for each other in one order and never deadlock.
  const ordered = [...claims].sort((a, b) => compareSlots(claimSlot(a), claimSlot(b)));
  const won = await claimIdempotencyKeys(
    tx,
    now,
    ordered.map((c) => ({
      tenant_id: c.identity.tenant_id,
      subject_id: c.identity.subject_id,
      session_id: c.identity.session_id,
      key_hash: c.keyHash,
      request_hash: c.requestHash,
      job_id: c.jobId,
      created_at: now,
      expires_at: expires,
    })),
  );
  return new Set(won.map((r) => slot({ tenant_id: r.tenant_id, subject_id: r.subject_id, session_id: r.session_id } as Identity, r.key_hash)));
}

export interface HeldKey {
  requestHash: string;
  jobId: string;
}

/** The live rows of these slots (a claim lost to them), by slot. One statement. */
export async function findKeys(db: Db | Tx, now: Date, wanted: ReadonlyArray<Pick<KeyClaim, "identity" | "keyHash">>): Promise<Map<string, HeldKey>> {
  if (wanted.length === 0) return new Map();
  const rows = await findIdempotencyKeys(
    db,
    now,
    wanted.map((w) => ({ tenant_id: w.identity.tenant_id, subject_id: w.identity.subject_id, session_id: w.identity.session_id, key_hash: w.keyHash })),
  );
  return new Map(
    rows.map((r) => [slot({ tenant_id: r.tenant_id, subject_id: r.subject_id, session_id: r.session_id } as Identity, r.key_hash), { requestHash: r.request_hash, jobId: r.job_id }]),
  );
}

/** RET-1: an ended session's keys go with it; keys past their 24 h go on every sweep. Bounded batches. */
export function idempotencyCleaner(db: Db): SessionCleaner {
  const purge = async (which: Parameters<typeof purgeIdempotencyKeys>[1], limit: number) => {
    const n = await purgeIdempotencyKeys(db, which, limit);
    return { done: n < limit, removed: n };
  };
  return {
    name: "idempotency-keys",
    purgeSession: (t: CleanupTarget, { limit }) => purge({ session: t }, limit),
    purgeExpired: (now, { limit }) => purge({ before: now }, limit),
  };
}

/**
 * The session-memory protocol, written once: the sequence of reads, checks
 * and writes behind `load`, `commit` and `clear` of every SessionMemoryStore
 * (store.ts lists the rules). An adapter supplies only storage primitives
 * (SessionStorage) and keeps its own atomicity: a write unit is serialized per
 * tenant against every other writer of that tenant and writes nothing when it
 * throws — a PostgreSQL transaction under the tenant's row lock, a Neo4j write
 * transaction under the tenant's lock node, HugeGraph's locked scripts with
 * their check-and-set, one queue per store in memory.
 */
import { AppError } from "../errors";
import { storedFactCount } from "./history";
import { checkLoad, checkRoot, enforceQuotas, type QuotaState, type RootState } from "./quotas";
import { checkSnapshot } from "./snapshot";
import type { SessionMemoryStore } from "./store";
import type { CommitInput, CommitResult, ScopeKey, ScopeOwner, ScopeSnapshot, SnapshotContent } from "./types";
import { scopeKeyOf } from "./types";

/** What a load reads, in one consistent read. */
export interface LoadRead {
  revoked: boolean;
  otherSubject: boolean;
  root: RootState | null;
  /** The namespace's content; only looked at when the root is readable (an adapter may leave it empty otherwise). */
  content: SnapshotContent;
}

/** The root counts and live facts the quotas look at (the namespace's own facts excluded). */
export type QuotaCounts = Omit<QuotaState, "creatingRoot" | "factsAfter">;

/** What a write reads first, inside its unit. */
export interface WriteState extends QuotaCounts {
  revoked: boolean;
  otherSubject: boolean;
  root: RootState | null;
}

/** A commit that passed every check: what the unit writes. */
export interface ScopeWrite {
  /** No root yet: the unit creates it. */
  create: boolean;
  revision: number;
  expectedRevision: number;
  expiresAt: number;
  content: SnapshotContent;
  /** The serialized snapshot's size (checkSnapshot). */
  bytes: number;
  /** What the quotas count: live facts plus history entries. */
  factCount: number;
  now: number;
}

/** One write, atomic and serialized per tenant; the state it writes against is the one readState read. */
export interface SessionWriteUnit {
  /** Revocation, subject, root and quota counts. `content`: what a commit will write (absent for a clear). */
  readState(content?: SnapshotContent): Promise<WriteState>;
  /** The root read is expired: its content goes, and stays gone though the write is then refused. */
  dropExpired(): Promise<void>;
  writeScope(w: ScopeWrite): Promise<void>;
  /** Clear of the root read: contents go, the root is closed for good. */
  close(): Promise<void>;
  /** Clear of a namespace never written: a closed root. */
  createClosed(expiresAt: number): Promise<void>;
}

export interface SessionStorage {
  readLoad(owner: ScopeOwner, now: number): Promise<LoadRead>;
  /** A load found the namespace expired: remove its content (the root stays). */
  dropExpired(key: ScopeKey, now: number): Promise<void>;
  /** Runs `fn` as one write unit of the owner's tenant. */
  write<T>(owner: ScopeOwner, now: number, fn: (unit: SessionWriteUnit) => Promise<T>): Promise<T>;
}

/** The authoritative snapshot: refusals in checkLoad's order, expired content removed on access. */
export async function loadScope(storage: SessionStorage, owner: ScopeOwner, now: number): Promise<ScopeSnapshot | null> {
  const key = scopeKeyOf(owner);
  const r = await storage.readLoad(owner, now);
  const root = r.root;
  const state = checkLoad(root, { revoked: r.revoked, otherSubject: r.otherSubject, now });
  if (!root || state === "absent") return null;
  if (state === "expired") {
    await storage.dropExpired(key, now);
    throw new AppError("session_expired");
  }
  return { key, subject_id: root.subject_id, revision: root.revision, expires_at: root.expires_at, ...r.content };
}

/**
 * Replaces the namespace's content if the expected revision still holds. An
 * expired root's content is removed inside the unit, which then ends without
 * a refusal (so the removal stays), and the refusal follows.
 */
export async function commitScope(storage: SessionStorage, input: CommitInput): Promise<CommitResult> {
  const { owner } = input;
  const key = scopeKeyOf(owner);
  const result = await storage.write(owner, input.now, async (unit): Promise<CommitResult | "expired"> => {
    const st = await unit.readState(input.content);
    const root = st.root;
    const state = checkRoot(root, { subject_id: owner.subject_id, expectedRevision: input.expectedRevision, expiresAt: input.expiresAt }, {
      revoked: st.revoked,
      otherSubject: st.otherSubject,
      now: input.now,
    });
    if (state === "expired") {
      if (root) await unit.dropExpired();
      return "expired";
    }
    const bytes = checkSnapshot(key, input.content);
    const factCount = storedFactCount(input.content);
    enforceQuotas({ ...quotaCounts(st), creatingRoot: root === null, factsAfter: factCount });
    const revision = (root?.revision ?? 0) + 1;
    await unit.writeScope({
      create: root === null,
      revision,
      expectedRevision: input.expectedRevision,
      expiresAt: input.expiresAt,
      content: input.content,
      bytes,
      factCount,
      now: input.now,
    });
    return { revision };
  });
  if (result === "expired") throw new AppError("session_expired");
  return result;
}

/** Clears the namespace and closes it for good; a namespace never written gets a closed root (it counts toward the caps). */
export async function clearScope(storage: SessionStorage, owner: ScopeOwner, expiresAt: number, now: number): Promise<void> {
  await storage.write(owner, now, async (unit) => {
    const st = await unit.readState();
    if (st.revoked) throw new AppError("session_revoked");
    if (st.otherSubject || (st.root && st.root.subject_id !== owner.subject_id)) throw new AppError("session_forbidden");
    if (st.root) return unit.close();
    // A closed root holds no facts: only the root bounds apply.
    enforceQuotas({ ...quotaCounts(st), sessionLiveFactsElsewhere: 0, tenantLiveFactsElsewhere: 0, creatingRoot: true, factsAfter: 0 });
    return unit.createClosed(expiresAt);
  });
}

function quotaCounts(st: QuotaCounts): QuotaCounts {
  return {
    sessionRoots: st.sessionRoots,
    tenantRoots: st.tenantRoots,
    sessionLiveFactsElsewhere: st.sessionLiveFactsElsewhere,
    tenantLiveFactsElsewhere: st.tenantLiveFactsElsewhere,
  };
}

/** A class to extend: a store's own base class (Neo4jStore), or Object. */
type StoreBase = abstract new (...args: any[]) => object;

/**
 * `Base` with load, commit and clear made by the protocol over the class's
 * `storage`: every session store is `extends SessionProtocolStore(itsBase)`
 * and supplies the primitives.
 */
export function SessionProtocolStore<B extends StoreBase>(Base: B) {
  abstract class WithProtocol extends Base implements Pick<SessionMemoryStore, "load" | "commit" | "clear"> {
    protected abstract readonly storage: SessionStorage;

    load(owner: ScopeOwner, now: number): Promise<ScopeSnapshot | null> {
      return loadScope(this.storage, owner, now);
    }

    commit(input: CommitInput): Promise<CommitResult> {
      return commitScope(this.storage, input);
    }

    clear(owner: ScopeOwner, expiresAt: number, now: number): Promise<void> {
      return clearScope(this.storage, owner, expiresAt, now);
    }
  }
  return WithProtocol;
}

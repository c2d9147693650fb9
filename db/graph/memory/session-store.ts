/**
 * In-memory SessionMemoryStore: the reference adapter for unit tests. Each
 * operation runs synchronously between awaits, so it is atomic in one process;
 * it applies the same checks, in the same order, as the PostgreSQL adapter.
 */
import { AppError } from "../../../core/errors";
import { checkLoad, checkRoot, enforceQuotas, type RootState } from "../../../core/memory/quotas";
import { historyOf, storedFactCount } from "../../../core/memory/history";
import { checkSnapshot } from "../../../core/memory/snapshot";
import type { SessionMemoryStore } from "../../../core/memory/store";
import type { CommitInput, CommitResult, PurgeResult, ScopeKey, ScopeOwner, ScopeSnapshot, SnapshotContent } from "../../../core/memory/types";
import { scopeKeyOf } from "../../../core/memory/types";

interface Root extends RootState {
  key: ScopeKey;
  content: SnapshotContent;
}

const k = (key: ScopeKey) => JSON.stringify([key.tenant_id, key.session_id, key.ns]);
const sk = (tenant: string, session: string) => JSON.stringify([tenant, session]);

function clone<T>(v: T): T {
  return structuredClone(v);
}

function rowCount(c: SnapshotContent): number {
  return c.entities.length + c.facts.length + historyOf(c).length;
}

export class InMemorySessionStore implements SessionMemoryStore {
  readonly kind = "memory";
  private readonly roots = new Map<string, Root>();
  private readonly revoked = new Set<string>();

  private sessionRoots(tenant: string, session: string): Root[] {
    return [...this.roots.values()].filter((r) => r.key.tenant_id === tenant && r.key.session_id === session);
  }

  private tenantRoots(tenant: string): Root[] {
    return [...this.roots.values()].filter((r) => r.key.tenant_id === tenant);
  }

  private guard(owner: ScopeOwner): { root: Root | null; otherSubject: boolean; revoked: boolean } {
    const root = this.roots.get(k(owner)) ?? null;
    return {
      root,
      revoked: this.revoked.has(sk(owner.tenant_id, owner.session_id)),
      otherSubject: this.sessionRoots(owner.tenant_id, owner.session_id).some((r) => r.subject_id !== owner.subject_id),
    };
  }

  private expire(root: Root): never {
    root.content = { doc: {}, entities: [], facts: [] };
    throw new AppError("session_expired");
  }

  async load(owner: ScopeOwner, now: number): Promise<ScopeSnapshot | null> {
    const g = this.guard(owner);
    const root = g.root;
    const state = checkLoad(root, { ...g, now });
    if (!root || state === "absent") return null;
    if (state === "expired") this.expire(root);
    return { key: { ...root.key }, subject_id: root.subject_id, revision: root.revision, expires_at: root.expires_at, ...clone(root.content) };
  }

  async commit(input: CommitInput): Promise<CommitResult> {
    const { owner } = input;
    const g = this.guard(owner);
    const state = checkRoot(g.root, { subject_id: owner.subject_id, expectedRevision: input.expectedRevision, expiresAt: input.expiresAt }, { ...g, now: input.now });
    if (state === "expired") {
      if (g.root) this.expire(g.root);
      throw new AppError("session_expired");
    }
    const key = scopeKeyOf(owner);
    checkSnapshot(key, input.content);
    const live = (r: Root) => !r.deleted && r.expires_at > input.now && k(r.key) !== k(key);
    const sessionRoots = this.sessionRoots(owner.tenant_id, owner.session_id);
    const tenantRoots = this.tenantRoots(owner.tenant_id);
    enforceQuotas({
      creatingRoot: g.root === null,
      sessionRoots: sessionRoots.length,
      tenantRoots: tenantRoots.length,
      sessionLiveFactsElsewhere: sessionRoots.filter(live).reduce((n, r) => n + storedFactCount(r.content), 0),
      tenantLiveFactsElsewhere: tenantRoots.filter(live).reduce((n, r) => n + storedFactCount(r.content), 0),
      factsAfter: storedFactCount(input.content),
    });
    const revision = (g.root?.revision ?? 0) + 1;
    this.roots.set(k(key), {
      key,
      subject_id: owner.subject_id,
      revision,
      expires_at: input.expiresAt,
      deleted: false,
      content: clone(input.content),
    });
    return { revision };
  }

  async clear(owner: ScopeOwner, expiresAt: number, now: number): Promise<void> {
    const g = this.guard(owner);
    if (g.revoked) throw new AppError("session_revoked");
    if (g.otherSubject || (g.root && g.root.subject_id !== owner.subject_id)) throw new AppError("session_forbidden");
    if (g.root) {
      g.root.deleted = true;
      g.root.revision += 1;
      g.root.content = { doc: {}, entities: [], facts: [] };
      return;
    }
    enforceQuotas({
      creatingRoot: true,
      sessionRoots: this.sessionRoots(owner.tenant_id, owner.session_id).length,
      tenantRoots: this.tenantRoots(owner.tenant_id).length,
      sessionLiveFactsElsewhere: 0,
      tenantLiveFactsElsewhere: 0,
      factsAfter: 0,
    });
    const key = scopeKeyOf(owner);
    this.roots.set(k(key), { key, subject_id: owner.subject_id, revision: 1, expires_at: expiresAt, deleted: true, content: { doc: {}, entities: [], facts: [] } });
    void now;
  }

  /** What one session still holds, any namespace: rows and non-empty docs (erasure checks read it like a backend). */
  countSession(tenantId: string, sessionId: string): { entities: number; facts: number; docs: number } {
    const roots = this.sessionRoots(tenantId, sessionId);
    return {
      entities: roots.reduce((n, r) => n + r.content.entities.length, 0),
      facts: roots.reduce((n, r) => n + r.content.facts.length, 0),
      docs: roots.filter((r) => Object.keys(r.content.doc).length > 0).length,
    };
  }

  async revokeSession(tenantId: string, sessionId: string): Promise<void> {
    this.revoked.add(sk(tenantId, sessionId));
  }

  private purge(roots: Root[], batch: number): PurgeResult {
    let removed = 0;
    for (const r of roots) {
      // History goes with the first batch that reaches the root (it is one document, like the root's doc).
      if (removed < batch && historyOf(r.content).length > 0) {
        removed += historyOf(r.content).length;
        r.content.doc = {};
      }
      while (removed < batch && r.content.facts.length > 0) {
        r.content.facts.pop();
        removed++;
      }
      while (removed < batch && r.content.entities.length > 0) {
        r.content.entities.pop();
        removed++;
      }
      if (removed >= batch) break;
    }
    return { removed, done: roots.every((r) => rowCount(r.content) === 0) };
  }

  async purgeSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult> {
    return this.purge(this.sessionRoots(tenantId, sessionId), batch);
  }

  async purgeExpired(now: number, batch: number): Promise<PurgeResult> {
    return this.purge([...this.roots.values()].filter((r) => r.expires_at <= now), batch);
  }
}

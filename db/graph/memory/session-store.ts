/**
 * In-memory SessionMemoryStore: the reference adapter for unit tests. The
 * protocol (core/memory/session-protocol.ts) runs over plain maps; write units
 * run one at a time, and each of their writes is one synchronous step, so a
 * write is atomic in one process.
 */
import type { RootState } from "../../../core/memory/quotas";
import { historyOf, storedFactCount } from "../../../core/memory/history";
import { SessionProtocolStore, type SessionStorage, type SessionWriteUnit } from "../../../core/memory/session-protocol";
import type { SessionMemoryStore } from "../../../core/memory/store";
import type { PurgeResult, ScopeKey, ScopeOwner, SnapshotContent } from "../../../core/memory/types";
import { scopeKeyOf } from "../../../core/memory/types";

interface Root extends RootState {
  key: ScopeKey;
  content: SnapshotContent;
}

const k = (key: ScopeKey) => JSON.stringify([key.tenant_id, key.session_id, key.ns]);
const sk = (tenant: string, session: string) => JSON.stringify([tenant, session]);

function emptyContent(): SnapshotContent {
  return { doc: {}, entities: [], facts: [] };
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

function rowCount(c: SnapshotContent): number {
  return c.entities.length + c.facts.length + historyOf(c).length;
}

export class InMemorySessionStore extends SessionProtocolStore(Object) implements SessionMemoryStore {
  readonly kind = "memory";
  private readonly roots = new Map<string, Root>();
  private readonly revoked = new Set<string>();

  private sessionRoots(tenant: string, session: string): Root[] {
    return [...this.roots.values()].filter((r) => r.key.tenant_id === tenant && r.key.session_id === session);
  }

  private tenantRoots(tenant: string): Root[] {
    return [...this.roots.values()].filter((r) => r.key.tenant_id === tenant);
  }

  /** Serializes write units: the protocol awaits between its read and its write. */
  private tail: Promise<unknown> = Promise.resolve();

  protected readonly storage: SessionStorage = {
    readLoad: async (owner) => ({ ...this.guard(owner), content: this.contentOf(owner) }),
    dropExpired: async (key) => {
      const root = this.roots.get(k(key));
      if (root) root.content = emptyContent();
    },
    write: (owner, now, fn) => {
      const run = this.tail.then(() => fn(this.unit(owner, now)));
      this.tail = run.catch(() => undefined);
      return run;
    },
  };

  private guard(owner: ScopeOwner): { root: Root | null; otherSubject: boolean; revoked: boolean } {
    const root = this.roots.get(k(owner)) ?? null;
    return {
      root,
      revoked: this.revoked.has(sk(owner.tenant_id, owner.session_id)),
      otherSubject: this.sessionRoots(owner.tenant_id, owner.session_id).some((r) => r.subject_id !== owner.subject_id),
    };
  }

  private contentOf(key: ScopeKey): SnapshotContent {
    const root = this.roots.get(k(key));
    return root ? clone(root.content) : emptyContent();
  }

  private unit(owner: ScopeOwner, now: number): SessionWriteUnit {
    const key = scopeKeyOf(owner);
    const g = this.guard(owner);
    const sessionRoots = this.sessionRoots(owner.tenant_id, owner.session_id);
    const tenantRoots = this.tenantRoots(owner.tenant_id);
    const live = (r: Root) => !r.deleted && r.expires_at > now && k(r.key) !== k(key);
    return {
      readState: async () => ({
        ...g,
        sessionRoots: sessionRoots.length,
        tenantRoots: tenantRoots.length,
        sessionLiveFactsElsewhere: sessionRoots.filter(live).reduce((n, r) => n + storedFactCount(r.content), 0),
        tenantLiveFactsElsewhere: tenantRoots.filter(live).reduce((n, r) => n + storedFactCount(r.content), 0),
      }),
      dropExpired: async () => {
        if (g.root) g.root.content = emptyContent();
      },
      writeScope: async (w) => {
        this.roots.set(k(key), { key, subject_id: owner.subject_id, revision: w.revision, expires_at: w.expiresAt, deleted: false, content: clone(w.content) });
      },
      close: async () => {
        if (!g.root) return;
        g.root.deleted = true;
        g.root.revision += 1;
        g.root.content = emptyContent();
      },
      createClosed: async (expiresAt) => {
        this.roots.set(k(key), { key, subject_id: owner.subject_id, revision: 1, expires_at: expiresAt, deleted: true, content: emptyContent() });
      },
    };
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

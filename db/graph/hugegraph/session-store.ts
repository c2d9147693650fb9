/**
 * HugeGraph SessionMemoryStore (MEMORY_STORE=hugegraph), MEM-1/MEM-2/MEM-4.
 *
 * Inputs: a HugeGraphClient (client.ts) and the schema of schema.ts
 * (`ensureSchema()` creates it idempotently). Entity ids live in `eid`.
 *
 * A write (commit, clear, revoke, cleanup of a session) is:
 *  1. serialized per tenant in this process (an async mutex keyed by tenant);
 *  2. WRITE_STATE: one script reads the tenant's commit counter, tombstone,
 *     subject, root, counts and stored content;
 *  3. the checks of the protocol (core/memory/session-protocol.ts), in
 *     TypeScript, as for every adapter;
 *  4. one write script that, under a per-tenant monitor in the HugeGraph
 *     server's JVM, checks that the tenant's counter and the scope's revision
 *     are still the ones read (check-and-set), rechecks the tombstone, writes
 *     only the difference, bumps the counter and commits. A second process
 *     that slipped in between makes the counter differ: this process reads
 *     again and rechecks (bounded retries). A refusal throws inside the script
 *     and HugeGraph rolls the request back: nothing half-written.
 *
 * Caveat (the seed's): the monitor serializes commits on one HugeGraph server
 * instance. It is not a distributed cluster lock; several HugeGraph servers
 * over one shared backend would need an external lock.
 *
 * Reads are one round trip (LOAD) that checks the tombstone, the subject,
 * closure and expiry before any content is returned; expired content is
 * removed on access.
 */
import { AppError, type ErrorCode } from "../../../core/errors";
import { MAX_ENTITIES_PER_NAMESPACE, MAX_FACTS_PER_NAMESPACE, MAX_LIVE_FACTS_PER_TENANT } from "../../../core/limits";
import { diffContent } from "../../../core/memory/content-diff";
import { SessionProtocolStore, type SessionStorage, type SessionWriteUnit } from "../../../core/memory/session-protocol";
import type { SessionMemoryStore } from "../../../core/memory/store";
import type { PurgeResult, ScopeKey, ScopeOwner, SnapshotContent } from "../../../core/memory/types";
import { scopeKeyOf } from "../../../core/memory/types";
import { HugeGraphRefusal, KeyedMutex, type HugeGraphClient } from "./client";
import { ensureSchema, SESSION_SCHEMA, vid } from "./schema";
import * as S from "./session-scripts";
import { loadReadOf, writeStateOf, type StoredEntity, type StoredFact, type StoredRoot as GraphRoot } from "../graph-rows";

export interface HugeGraphStoreOptions {
  /** Awaited before every operation (e.g. `once(...)` of the schema): lets a synchronous composition root build stores. */
  schema?: (() => Promise<void>) | undefined;
  /** Re-reads after another process moved the tenant's counter (default 20). */
  maxRetries?: number | undefined;
}

interface StoredRoot extends GraphRoot {
  fact_count: number;
}


interface Loaded {
  revoked: boolean;
  other_subject: boolean;
  root: StoredRoot | null;
  entities: StoredEntity[];
  facts: StoredFact[];
}

interface WriteState extends Loaded {
  tenant_version: number;
  /** From the tenant's counters (O(1)), or exact from a scan of its roots (graph-rows.ts StoredWriteState). */
  tenant_roots: number;
  /** From the session's own roots (at most MAX_NAMESPACES_PER_SESSION). */
  session_roots: number;
  /** Counters: an upper bound (expired roots still in it); scan (`exact`): the live facts. Excludes the own namespace. */
  tenant_live_facts: number;
  session_live_facts: number;
  exact: boolean;
  /** For a tenant without counters yet: the values to initialize them with (-1 otherwise). */
  init_roots: number;
  init_live: number;
}

/** Bindings of a locked script that does not initialize the tenant's counters. */
const NO_INIT = { init_roots: -1, init_live: -1 };

const REFUSALS: Record<string, ErrorCode> = {
  revision_conflict: "revision_conflict",
  session_revoked: "session_revoked",
  namespace_closed: "namespace_closed",
  session_forbidden: "session_forbidden",
  conflict: "conflict",
};

const bounds = { max_entities: MAX_ENTITIES_PER_NAMESPACE, max_facts: MAX_FACTS_PER_NAMESPACE };

/** The bindings every script of one scope takes. */
function scopeBindings(key: ScopeKey, subject = "") {
  return {
    tenant: key.tenant_id,
    session: key.session_id,
    ns: key.ns,
    subject,
    tenant_vid: vid.tenant(key.tenant_id),
    scope_vid: vid.scope(key.tenant_id, key.session_id, key.ns),
    revocation_vid: vid.revocation(key.tenant_id, key.session_id),
  };
}

class TenantChanged extends Error {}

export class HugeGraphSessionStore extends SessionProtocolStore(Object) implements SessionMemoryStore {
  readonly kind = "hugegraph";
  private readonly mutex = new KeyedMutex();
  private readonly schema: (() => Promise<void>) | undefined;
  private readonly maxRetries: number;

  constructor(
    private readonly client: HugeGraphClient,
    opts: HugeGraphStoreOptions = {},
  ) {
    super();
    this.schema = opts.schema;
    this.maxRetries = opts.maxRetries ?? 20;
  }

  /** Creates property keys, labels and indexes (idempotent). */
  ping(): Promise<void> {
    return this.client.ping();
  }

  ensureSchema(): Promise<void> {
    return ensureSchema(this.client, SESSION_SCHEMA);
  }

  /** Runs a locked write script; our refusals become typed errors, a moved tenant counter becomes TenantChanged. */
  private async write<T>(script: string, bindings: Record<string, unknown>): Promise<T> {
    try {
      return await this.client.json<T>(script, bindings);
    } catch (err) {
      if (err instanceof HugeGraphRefusal) {
        if (err.code === "tenant_changed") throw new TenantChanged();
        const code = REFUSALS[err.code];
        if (code) throw new AppError(code);
        throw new AppError("internal", { message: "Session memory could not be written." });
      }
      throw err;
    }
  }

  /** Per-tenant in-process serialization plus bounded re-reads when another process committed in between. */
  private async serialized<T>(tenant: string, fn: () => Promise<T>): Promise<T> {
    await this.schema?.();
    return this.mutex.run(tenant, async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await fn();
        } catch (err) {
          if (!(err instanceof TenantChanged)) throw err;
          if (attempt >= this.maxRetries) throw new AppError("revision_conflict");
          await new Promise((r) => setTimeout(r, Math.min(200, 5 * 2 ** attempt) * Math.random()));
        }
      }
    });
  }

  private state(owner: ScopeOwner, now: number, withContent: boolean, exact = false): Promise<WriteState> {
    return this.client.json<WriteState>(S.WRITE_STATE, { ...scopeBindings(owner, owner.subject_id), now, with_content: withContent, exact, ...bounds });
  }

  protected readonly storage: SessionStorage = {
    readLoad: async (owner, now) => {
      await this.schema?.();
      return loadReadOf(await this.client.json<Loaded>(S.LOAD, { ...scopeBindings(scopeKeyOf(owner), owner.subject_id), now, ...bounds }));
    },
    dropExpired: async (key, now) => {
      await this.serialized(key.tenant_id, () => this.dropExpired(key, now));
    },
    write: (owner, now, fn) => this.serialized(owner.tenant_id, () => fn(this.unit(owner, now))),
  };

  /** Removes an expired namespace's content (the script checks the expiry again). */
  private dropExpired(key: ScopeKey, now: number): Promise<unknown> {
    return this.write(S.DROP_EXPIRED, { ...scopeBindings(key), now, expect_version: -1, check_revoked: false, ...NO_INIT });
  }

  /**
   * A write unit: WRITE_STATE, then one locked script whose check-and-set on
   * the tenant's counter (the one read here) makes the read and the write one
   * step; the retries of `serialized` start a new unit.
   */
  private unit(owner: ScopeOwner, now: number): SessionWriteUnit {
    const key = scopeKeyOf(owner);
    let st: WriteState | undefined;
    const read = (): WriteState => {
      if (!st) throw new AppError("internal");
      return st;
    };
    const locked = () => ({ ...scopeBindings(key, owner.subject_id), now, expect_version: read().tenant_version, check_revoked: true, init_roots: read().init_roots, init_live: read().init_live });
    return {
      readState: async (content) => {
        st = await this.state(owner, now, content !== undefined);
        // The counters bound the tenant's live facts from above: only a write they would refuse needs the exact count.
        if (content && !st.exact && st.tenant_live_facts + content.facts.length > MAX_LIVE_FACTS_PER_TENANT) st = await this.state(owner, now, true, true);
        return writeStateOf(st);
      },
      dropExpired: async () => {
        await this.dropExpired(key, now);
      },
      writeScope: async (w) => {
        const state = read();
        await this.write<number>(S.COMMIT, {
          ...locked(),
          ...diff(key, w.create ? { entities: [], facts: [] } : state, w.content),
          create: w.create,
          expected: w.expectedRevision,
          revision: w.revision,
          doc: JSON.stringify(w.content.doc),
          expires_at: w.expiresAt,
          fact_count: w.factCount,
          entity_count: w.content.entities.length,
          size_bytes: w.bytes,
          now: w.now,
        });
      },
      close: async () => {
        await this.write(S.CLOSE, locked());
      },
      createClosed: async (expiresAt) => {
        await this.write(S.CREATE_CLOSED, { ...locked(), expires_at: expiresAt });
      },
    };
  }

  async revokeSession(tenantId: string, sessionId: string, now: number): Promise<void> {
    const key = { tenant_id: tenantId, session_id: sessionId, ns: "" };
    await this.serialized(tenantId, () => this.write(S.REVOKE, { ...scopeBindings(key), now, expect_version: -1, check_revoked: false, ...NO_INIT }));
  }

  async purgeSession(tenantId: string, sessionId: string, batch: number): Promise<PurgeResult> {
    const key = { tenant_id: tenantId, session_id: sessionId, ns: "" };
    return this.serialized(tenantId, () => this.write<PurgeResult>(S.PURGE_SESSION, { ...scopeBindings(key), batch, expect_version: -1, check_revoked: false, ...NO_INIT }));
  }

  async purgeExpired(now: number, batch: number): Promise<PurgeResult> {
    await this.schema?.();
    return this.client.json<PurgeResult>(S.PURGE_EXPIRED, { now, batch });
  }
}

/** The difference between the stored content and the new snapshot, as script bindings (physical vertex ids included). */
function diff(key: ScopeKey, old: { entities: StoredEntity[]; facts: StoredFact[] }, content: SnapshotContent) {
  const ev = (eid: string) => vid.entity(key.tenant_id, key.session_id, key.ns, eid);
  const d = diffContent(old, content);
  return {
    drop_facts: d.dropFacts.map((f) => ({ s: ev(f.subject_id), f: f.fact_id })),
    drop_entities: d.dropEntities.map((e) => ev(e.id)),
    add_entities: d.addEntities.map(({ entity: e, doc }) => ({ vid: ev(e.id), eid: e.id, name: e.name, type: e.type, doc })),
    upd_entities: d.changedEntities.map(({ entity: e, doc }) => ({ vid: ev(e.id), name: e.name, doc })),
    add_facts: d.addFacts.map(({ fact: f, doc }) => ({ s: ev(f.subject_id), o: ev(f.object_id), f: f.fact_id, p: f.predicate, doc })),
    upd_facts: d.changedFacts.map(({ fact: f, doc }) => ({ s: ev(f.subject_id), f: f.fact_id, doc })),
  };
}

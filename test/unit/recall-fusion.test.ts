import { describe, expect, it } from "vitest";
import { ManualClock } from "../../core/clock";
import { makeIdentity } from "../../core/execution/identity";
import { LocalHashEmbedder, type Embedder } from "../../core/memory/embedder";
import { SessionMemoryEngine } from "../../core/memory/engine";
import { RepositoryMemory } from "../../core/memory/repository";
import { DEFAULT_FUSION, diversify, fuseRankings, type FusionByKind } from "../../core/recall/recall";
import { InMemoryRepositoryStore } from "../../db/graph/memory/repository-store";
import { InMemorySessionStore } from "../../db/graph/memory/session-store";

const DAY = 86_400_000;

describe("fusion settings per kind of memory", () => {
  it("diversify keeps at most perNode facts per node in place and moves the rest after, in order", () => {
    const nodes: Record<string, string[]> = { a: ["file", "m1"], b: ["file", "m2"], c: ["file", "m3"], d: ["svc", "db"], e: ["svc", "cache"] };
    const ranked = ["a", "b", "c", "d", "e"].map((id) => ({ id }));
    const of = (id: string) => nodes[id]!;
    expect(diversify(ranked, of, 1).map((r) => r.id)).toEqual(["a", "d", "b", "c", "e"]);
    expect(diversify(ranked, of, 2).map((r) => r.id)).toEqual(["a", "b", "d", "e", "c"]);
    expect(diversify(ranked, of, 0).map((r) => r.id)).toEqual(["a", "b", "c", "d", "e"]);
    // Nothing is dropped.
    expect(diversify(ranked, of, 1)).toHaveLength(5);
  });

  it("a small RRF constant lets the first places of a list count more", () => {
    // x: first in BM25, absent from dense; y: third in both.
    const lexical = [{ id: "x", score: 3 }, { id: "w", score: 2 }, { id: "y", score: 1 }];
    const dense = [{ id: "z", score: 0.9 }, { id: "v", score: 0.8 }, { id: "y", score: 0.7 }];
    expect(fuseRankings(lexical, dense, 3, { ...DEFAULT_FUSION, k: 60 })[0]!.id).toBe("y");
    expect(fuseRankings(lexical, dense, 3, { ...DEFAULT_FUSION, k: 0.5 })[0]!.id).toBe("x");
  });

  it("session recall fuses with the embedder's conversation settings, durable recall with its code settings", async () => {
    const clock = new ManualClock(Date.UTC(2026, 11, 5));
    const hashing = new LocalHashEmbedder(256);
    const capped = { k: 60, denseWeight: 1, perNode: 1 };
    const uncapped = { k: 60, denseWeight: 1, perNode: 0 };
    const withFusion = (fusion: FusionByKind): Embedder => ({ model: hashing.model, dim: hashing.dim, fusion, embed: (i, t, s) => hashing.embed(i, t, s) });
    // One file whose members all match the query, and one other fact that matches it less.
    const triples = [
      ...["invoiceTotal", "invoiceTax", "invoiceLines", "invoiceDue"].map((m) => ({ subject: "billing/invoice.ts", subject_type: "file", predicate: "contains", object: `billing/invoice.ts#${m}`, object_type: "function" })),
      { subject: "PaymentService", subject_type: "class", predicate: "calls", object: "invoiceMailer", object_type: "function" },
    ];
    const topSubjects = (r: { results: Array<{ subject: { name: string } }> }) => r.results.slice(0, 2).map((x) => x.subject.name);

    const identity = makeIdentity({ tenant_id: "org-f", subject_id: "usr-f", session_id: "thread-f", parent_session_id: "thread-f" });
    for (const [fusion, capsSession, capsRepo] of [
      [{ code: uncapped, conversation: capped }, true, false],
      [{ code: capped, conversation: uncapped }, false, true],
    ] as const) {
      const embedder = withFusion(fusion);
      const sessions = new SessionMemoryEngine({ store: new InMemorySessionStore(), clock, embedder });
      const scope = { identity, ns: `ns-${capsSession}`, expiresAt: clock.now().getTime() + DAY };
      await sessions.upsert(scope, { triples });
      const s = await sessions.recall(scope, { query: "invoice", limit: 5, mode: "fused" });
      expect(topSubjects(s)).toEqual(capsSession ? ["billing/invoice.ts", "PaymentService"] : ["billing/invoice.ts", "billing/invoice.ts"]);

      const repo = new RepositoryMemory({ repo: new InMemoryRepositoryStore(), clock, embedder });
      await repo.upsertTriples(identity, `repo-${capsRepo}`, { triples });
      const r = await repo.recall(identity, `repo-${capsRepo}`, { query: "invoice", limit: 5, mode: "fused" });
      expect(topSubjects(r)).toEqual(capsRepo ? ["billing/invoice.ts", "PaymentService"] : ["billing/invoice.ts", "billing/invoice.ts"]);
    }
  });
});

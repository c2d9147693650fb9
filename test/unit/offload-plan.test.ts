/**
 * The local extractor and the extraction planner as classes of behaviour: chatter of every shape
 * is dropped and durable statements of every kind are kept; a long thread never pushes a
 * namespace past its limits — extraction drops its least useful facts (counted), never a fact the
 * runtime wrote itself, and never refuses; a full session quota lets extraction replace but not
 * grow.
 */
import { describe, expect, it } from "vitest";
import { makeIdentity } from "../../core/execution/identity";
import { MAX_FACTS_PER_NAMESPACE, MAX_SNAPSHOT_BYTES } from "../../core/limits";
import { LocalExtractor, type Turn } from "../../core/memory/extractor";
import { BUDGET, planExtraction } from "../../core/memory/extract/plan";
import { entityId, factId } from "../../core/memory/ids";
import { checkSnapshot, emptyContent, snapshotBytes } from "../../core/memory/snapshot";
import type { ScopeSnapshot, SnapshotContent } from "../../core/memory/types";

const identity = makeIdentity({ tenant_id: "org-1", subject_id: "usr-1", session_id: "thread-1", parent_session_id: "thread-1" });
const key = { tenant_id: "org-1", session_id: "thread-1", ns: "repo-1" };
const extractor = new LocalExtractor();
const user = (content: string): Turn => ({ role: "user", content });

function snapshot(content: SnapshotContent, revision: number): ScopeSnapshot {
  return { ...content, key, subject_id: "usr-1", revision, expires_at: Date.UTC(2027, 0, 1) };
}

describe("what the local extractor keeps", () => {
  it("drops chatter, questions, narration and speculation", async () => {
    const chatter = [
      "thanks!!",
      "ok cool",
      "hey, quick question about the deploy",
      "Let me check the repository first.",
      "I'll look at the failing test now.",
      "Can you look at why the build fails?",
      "maybe it's the cache, not sure",
      "sounds good, go ahead",
      "wait is it 30 days? let me check",
    ];
    const out = await extractor.extract(identity, chatter.map(user));
    expect(out.map((s) => s.text)).toEqual([]);
  });

  it("keeps a durable statement of every kind, with its kind", async () => {
    const said: Array<[string, string]> = [
      ["Never run database migrations on Fridays.", "rule"],
      ["We decided to use Redis streams for the notification queue.", "decided"],
      ["The login handler lives in src/auth/login.ts.", "located_in"],
      ["The request timeout defaults to 30 seconds.", "has_value"],
      ["Marta owns the build tooling, so ask her about Turborepo.", "owned_by"],
      ["I prefer named exports over default exports.", "prefers"],
      ["The root cause was a missing idempotency key on retries.", "caused_by"],
      ["Fixed it by reusing one idempotency key per order.", "fixed_by"],
      ["The legacy /api/login endpoint is deprecated.", "status"],
      ["Access tokens are signed with HS256 using JWT_SECRET.", "states"],
    ];
    const out = await extractor.extract(identity, said.map(([t]) => user(t)));
    const kinds = new Map(out.map((s) => [s.text, s.kind]));
    for (const [text, kind] of said) expect([text, kinds.get(text)]).toEqual([text, kind]);
    expect(out.every((s) => s.about.length >= 1 && s.turns.length === 1)).toBe(true);
  });

  it("a correction names the value it replaces", async () => {
    const [st] = await extractor.extract(identity, [user("tokens are signed with ES256 now, not HS256")]);
    expect(st?.corrects?.old).toContain("hs256");
  });
});

describe("the namespace budget", () => {
  /** Distinct durable statements, `n` of them, that no repeat rule merges. */
  const statements = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => user(`Service${from + i} must call the Billing${(from + i) * 7} endpoint with a timeout of ${from + i + 3} seconds in region eu-${from + i}.`));

  it("a long thread never exceeds the limits: the least useful extracted facts are dropped and counted, a runtime's own facts stay", async () => {
    // The runtime wrote two facts itself.
    const a = entityId(key, "class", "AuthService");
    const b = entityId(key, "class", "TokenStore");
    let content: SnapshotContent = {
      ...emptyContent(),
      entities: [
        { id: a, name: "AuthService", type: "class", doc: {} },
        { id: b, name: "TokenStore", type: "class", doc: {} },
      ],
      facts: [{ fact_id: factId(key, a, "depends_on", b), subject_id: a, predicate: "depends_on", object_id: b, doc: { source: "runtime", valid_from: 1 } }],
    };
    let dropped = 0;
    for (let call = 0; call < 12; call++) {
      const turns = statements(64, call * 64);
      const st = await extractor.extract(identity, turns);
      expect(st.length).toBe(64);
      const plan = planExtraction({ key, sessionId: "thread-1", now: 1_000 + call, current: snapshot(content, call), statements: st, refs: turns.map((_, i) => `of_${call} turn ${i + 1}`), turns: turns.length, growth: true });
      // Every plan is a snapshot the store accepts: never refused for size, never half-written.
      expect(() => checkSnapshot(key, plan.content)).not.toThrow();
      expect(plan.content.facts.length).toBeLessThanOrEqual(BUDGET.facts);
      expect(snapshotBytes(plan.content)).toBeLessThanOrEqual(BUDGET.bytes);
      dropped += plan.stats.dropped;
      content = plan.content;
    }
    expect(dropped).toBeGreaterThan(0);
    expect(content.facts.some((f) => f.doc.source === "runtime")).toBe(true);
    expect(content.doc["extraction"]).toMatchObject({ offloads: 12, turns: 768, dropped });
    // The newest statements are among those kept.
    const names = new Set(content.entities.map((e) => e.name));
    expect([...names].some((n) => n.startsWith("Service767 "))).toBe(true);
    expect(MAX_FACTS_PER_NAMESPACE).toBeGreaterThan(BUDGET.facts);
    expect(MAX_SNAPSHOT_BYTES).toBeGreaterThan(BUDGET.bytes);
  });

  it("with a full session quota (growth: false) extraction may replace its own facts but never adds to the count", async () => {
    const first = statements(20);
    const p1 = planExtraction({ key, sessionId: "thread-1", now: 1, current: snapshot(emptyContent(), 0), statements: await extractor.extract(identity, first), refs: first.map((_, i) => `t${i}`), turns: 20, growth: true });
    const more = statements(10, 100);
    const p2 = planExtraction({ key, sessionId: "thread-1", now: 2, current: snapshot(p1.content, 1), statements: await extractor.extract(identity, more), refs: more.map((_, i) => `u${i}`), turns: 10, growth: false });
    expect(p2.content.facts.length).toBeLessThanOrEqual(p1.content.facts.length);
    expect(p2.stats.dropped).toBeGreaterThanOrEqual(10);
  });
});

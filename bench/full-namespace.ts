/**
 * The recall-latency fixture shared by bench/recall.ts and bench/stores.ts:
 * a fresh scope, a namespace filled to its fact limit (512 facts over 400
 * code-like entities, within the 24 KiB snapshot), code-like queries, and the
 * timed loop (10 warm-up recalls, then one timed recall per query).
 */
import { randomBytes } from "node:crypto";
import { makeIdentity } from "../core/execution/identity";
import { MAX_FACTS_PER_NAMESPACE } from "../core/limits";
import type { MemoryScope, SessionMemoryEngine } from "../core/memory/engine";

const DAY = 24 * 3600 * 1000;
const WORDS = ["Auth", "Billing", "Invoice", "Ledger", "Cache", "Search", "Order", "Stock", "Ship", "Mail", "Sms", "Upload", "Report", "Tenant", "User", "Flag", "Metric", "Trace", "Log", "Cron"];
const KINDS = ["Service", "Repo", "Worker", "Handler", "Client", "Store", "Job", "Api"];
const PREDICATES = ["calls", "uses", "reads", "writes", "depends_on", "stores_in", "emits", "handles"];

/** A fresh scope; a fixed `tag` makes IDs (and so ranking tie-breaks) reproducible across runs. */
export function scopeFor(now: number, tag = randomBytes(4).toString("hex")): MemoryScope {
  const identity = makeIdentity({ tenant_id: `org-${tag}`, subject_id: `usr-${tag}`, session_id: `bench-${tag}`, parent_session_id: `bench-${tag}` });
  return { identity, ns: `repo-${tag}`, expiresAt: now + 7 * DAY };
}

export function fullNamespaceTriples() {
  const name = (i: number) => `${WORDS[i % WORDS.length]}${KINDS[Math.floor(i / WORDS.length) % KINDS.length]}${Math.floor(i / (WORDS.length * KINDS.length))}`;
  return Array.from({ length: MAX_FACTS_PER_NAMESPACE }, (_, i) => ({
    subject: name(i % 400),
    subject_type: "class",
    predicate: PREDICATES[i % PREDICATES.length]!,
    object: name((i * 7 + 3 + Math.floor(i / 400) * 13) % 400),
    object_type: "class",
  }));
}

/** `n` distinct code-like queries (word, kind, predicate; at most 1,280). */
export function queryTexts(n: number): string[] {
  const combos = WORDS.length * KINDS.length * PREDICATES.length;
  if (n > combos) throw new Error(`at most ${combos} distinct queries`);
  return Array.from({ length: n }, (_, i) => {
    const j = (i * 37) % combos; // 37 is coprime to 1,280: i ↦ j is one-to-one
    return `${WORDS[j % WORDS.length]} ${KINDS[Math.floor(j / WORDS.length) % KINDS.length]} ${PREDICATES[Math.floor(j / (WORDS.length * KINDS.length))]!.replace("_", " ")}`;
  });
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Fills a fresh namespace, warms up, times `queries` recalls (limit 10). Times are sorted, in ms. */
export async function timeFullNamespaceRecall(engine: SessionMemoryEngine, now: number, queries: number, modes: Array<"fused" | "lexical"> = ["fused"]) {
  const scope = scopeFor(now);
  const triples = fullNamespaceTriples();
  for (let i = 0; i < triples.length; i += 128) await engine.upsert(scope, { triples: triples.slice(i, i + 128) });
  const snap = await engine.snapshot(scope);
  // Every query text differs (and differs from the warm-up's), so no cache of query embeddings answers a timed recall.
  const texts = queryTexts(queries + 10);
  for (const q of texts.splice(queries, 10)) await engine.recall(scope, { query: q, limit: 10 });
  // Modes interleaved query by query, so both see the same conditions on a shared machine.
  const byMode = new Map(modes.map((m) => [m, [] as number[]]));
  for (const q of texts) {
    for (const mode of modes) {
      const t0 = performance.now();
      const r = await engine.recall(scope, { query: q, limit: 10, mode });
      byMode.get(mode)!.push(performance.now() - t0);
      if (r.results.length === 0) throw new Error("recall returned nothing on a full namespace");
    }
  }
  for (const t of byMode.values()) t.sort((a, b) => a - b);
  return { facts: snap.facts.length, entities: snap.entities.length, times: byMode.get(modes[0]!)!, byMode };
}

/**
 * Conversational-memory recall (`BENCH_ONLY=recall-conversation npm run bench`, or
 * `npx tsx bench/recall-conversation.ts [--sweep]`).
 *
 * The set (bench/recall-conversation-set.ts: the dev half, tuned on;
 * bench/recall-conversation-held-out.ts: the held-out half, never tuned on) is long
 * multi-session conversations — coding threads and everyday chats — as observations,
 * and questions labelled with the observations that answer them. Each conversation is
 * stored in its own thread's session memory (a fresh scope, one namespace) the way the
 * offload extractor stores a statement (core/memory/extract/plan.ts): one fact
 * `<speaker or topic> <kind> <sentence>`, the object an entity of type `statement`
 * whose name is the sentence, the kind from the extractor's own classifier, one upsert
 * per session with the session's date as `observed_at`. The engine is the real one
 * (SessionMemoryEngine on PGlite tables, the local vector index over them) with the
 * embedder the platform builds for EMBEDDER (default `local`: the bundled sentence
 * model; a fallback to feature hashing stops the run).
 *
 * Every question goes through `SessionMemoryEngine.recall` in each mode (fused, lexical,
 * dense; limit 50), so whatever ranking the engine ships is what is measured. Scoring:
 * a recalled fact answers when it is one of the question's evidence observations;
 * hit@k = an answer among the first k, MRR = mean 1/rank of the first answer (0 beyond
 * 10, as bench/recall-quality.ts scores), all@5 (multi) = every evidence observation in
 * the top 5, stale@5 (update) = the replaced observation ranked above the answer, or
 * alone, within the top 5.
 *
 * `--sweep` (or BENCH_CONVERSATION_SWEEP=1) re-fuses the lexical and dense lists (top 50
 * each, from the real path) with weighted RRF over k × dense weight on the DEV half only,
 * prints the grid, and then reports the chosen setting's held-out figure once.
 * BENCH_CONVERSATION_SPLIT=dev runs the dev half alone (what tuning looks at);
 * BENCH_CONVERSATION_MISSES=dev lists that half's questions whose fused top 5 holds no evidence
 * (with the evidence and what came first instead).
 * `rankedLists()` returns, per question, the two ranked lists, for other offline fusions.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { ManualClock } from "../core/clock";
import { loadConfig } from "../core/config";
import { MAX_RECALL_LIMIT } from "../core/limits";
import { SessionMemoryEngine, type MemoryScope } from "../core/memory/engine";
import { classify } from "../core/memory/extract/classify";
import { STATEMENT_TYPE } from "../core/memory/extract/plan";
import { PREDICATE_PATTERN } from "../core/memory/snapshot";
import { DEFAULT_FUSION, type Fusion } from "../core/recall/recall";
import { migrateToLatest, openDatabase } from "../db/database";
import { PostgresSessionStore } from "../db/graph/postgres/session-store";
import { LocalVectorIndex } from "../db/vector/local";
import { PostgresVectorRows } from "../db/vector/local-postgres";
import { buildEmbedder } from "../main/memory";
import { scopeFor } from "./full-namespace";
import { candidateEmbedders } from "./candidate-models";
import { bySmoothedDev, refuse, score, SWEEP, type QualityRow } from "./recall-quality";
import { CATEGORIES, DEV_CONVERSATIONS, type Category, type LabelledConversation } from "./recall-conversation-set";
import { HELD_OUT_CONVERSATIONS } from "./recall-conversation-held-out";

export type Half = "dev" | "held-out";
export type Mode = "fused" | "lexical" | "dense";
const MODES: readonly Mode[] = ["fused", "lexical", "dense"];
const DAY = 86_400_000;
const t0 = performance.now();
const note = (msg: string) => process.stderr.write(`[recall-conversation ${((performance.now() - t0) / 1000).toFixed(0)}s] ${msg}\n`);

export interface Observation {
  /** `<conversation>.<key>`: stable across runs. */
  id: string;
  session: number;
  date: string;
  text: string;
  /** The entity the fact is stored under: the first speaker the sentence names, else the conversation's topic. */
  subject: string;
  subjectType: "person" | "topic";
}

export interface RankedItem {
  /** Observation ID. */
  id: string;
  score: number;
  /** The fact's subject and object entity IDs (what the per-node cap counts). */
  nodes: string[];
}

/** One question with its labels and, per mode asked, the engine's ranked observations (best first, ≤ 50). */
export interface AskedQuestion {
  half: Half;
  conversation: string;
  kind: LabelledConversation["kind"];
  q: string;
  category: Category;
  evidence: string[];
  replaces: string[];
  lists: Partial<Record<Mode, RankedItem[]>>;
}

export interface ConversationRow extends Omit<QualityRow, "embedder" | "ranking" | "split"> {
  half: Half;
  mode: string;
  category: string;
  all5: number | "";
  stale5: number | "";
}

export interface SweepCell {
  k: number;
  weight: number;
  per_node: number;
  dev_hit1: number;
  dev_hit5: number;
  dev_mrr: number;
}

export interface RecallConversationBench {
  when: string;
  load: string;
  embedder: string;
  shipped: Fusion;
  conversations: Array<{ half: Half; id: string; kind: string; observations: number; questions: number }>;
  rows: ConversationRow[];
  /** Offline re-fusion at the shipped setting vs the engine's own fused ranking (dev hit@5): a check that the sweep models the engine. */
  refusedCheck: { engine_hit5: number; refused_hit5: number } | null;
  sweep: SweepCell[];
  chosen: (Fusion & { dev: ConversationRow; heldOut: ConversationRow | null }) | null;
  /** BENCH_CONVERSATION_MISSES: questions of the named halves whose fused top 5 holds no evidence. */
  misses: Array<{ half: Half; q: string; category: Category; evidence: string[]; got: string[] }>;
}

/** The conversation's observations with their stable IDs and the entity each is stored under. */
export function observationsOf(c: LabelledConversation): Observation[] {
  return c.sessions.flatMap((s) =>
    s.lines.map(([key, text]) => {
      const named = c.speakers
        .map((name) => ({ name, at: text.search(new RegExp(`\\b${name}\\b`)) }))
        .filter((x) => x.at >= 0)
        .sort((a, b) => a.at - b.at)[0];
      return { id: `${c.id}.${key}`, session: s.n, date: s.date, text, subject: named?.name ?? c.topic, subjectType: named ? "person" : "topic" } as const;
    }),
  );
}

/** Refuses a set that is not what it claims: duplicate IDs or sentences, unknown evidence, an update without its earlier observation, a sentence reused across halves. */
export function checkSet(halves: Array<[Half, LabelledConversation[]]>): void {
  const problems: string[] = [];
  const textsByHalf = new Map<string, Half>();
  const convIds = new Set<string>();
  for (const [half, convs] of halves) {
    for (const c of convs) {
      if (convIds.has(c.id)) problems.push(`conversation id ${c.id} used twice`);
      convIds.add(c.id);
      const obs = observationsOf(c);
      const byId = new Map<string, Observation>();
      for (const o of obs) {
        if (byId.has(o.id)) problems.push(`${o.id}: duplicate key`);
        byId.set(o.id, o);
        const t = o.text.toLowerCase();
        const other = textsByHalf.get(t);
        if (other !== undefined) problems.push(`${o.id}: sentence already used${other === half ? "" : ` in the ${other} half`}`);
        textsByHalf.set(t, half);
      }
      c.sessions.forEach((s, i) => {
        if (s.n !== i + 1 || (i > 0 && s.date <= c.sessions[i - 1]!.date)) problems.push(`${c.id}: sessions out of order at ${s.n}`);
      });
      for (const x of c.questions) {
        if (!CATEGORIES.includes(x.category)) problems.push(`${c.id} "${x.q}": category ${x.category}`);
        if (x.evidence.length === 0) problems.push(`${c.id} "${x.q}": no evidence`);
        for (const e of [...x.evidence, ...(x.replaces ?? [])]) if (!byId.has(`${c.id}.${e}`)) problems.push(`${c.id} "${x.q}": unknown observation ${e}`);
        if (x.category === "multi" && x.evidence.length < 2) problems.push(`${c.id} "${x.q}": multi with one evidence`);
        if (x.category === "update") {
          const latest = Math.min(...x.evidence.map((e) => byId.get(`${c.id}.${e}`)?.session ?? 0));
          if (!x.replaces?.length) problems.push(`${c.id} "${x.q}": update without the observation it replaces`);
          for (const r of x.replaces ?? []) if ((byId.get(`${c.id}.${r}`)?.session ?? Infinity) > latest) problems.push(`${c.id} "${x.q}": ${r} is not earlier than the evidence`);
        }
      }
    }
  }
  if (problems.length > 0) throw new Error(`the conversation set is not consistent:\n  ${problems.join("\n  ")}`);
}

function selectedHalves(): Array<[Half, LabelledConversation[]]> {
  const halves: Array<[Half, LabelledConversation[]]> = [
    ["dev", DEV_CONVERSATIONS],
    ["held-out", HELD_OUT_CONVERSATIONS],
  ];
  checkSet(halves);
  return process.env.BENCH_CONVERSATION_SPLIT === "dev" ? halves.slice(0, 1) : halves;
}

/**
 * Stores every conversation of `halves` in its own thread's memory and asks every question in each
 * of `modes` (limit 50) through the engine: the ranked observations per question and mode.
 */
async function askAll(halves: Array<[Half, LabelledConversation[]]>, modes: readonly Mode[]): Promise<{ asked: AskedQuestion[]; embedder: string; fusion: Fusion; stored: RecallConversationBench["conversations"] }> {
  const clock = new ManualClock(Date.UTC(2026, 11, 5));
  const config = loadConfig({ ...process.env, EMBEDDER: process.env.EMBEDDER ?? "local" });
  // BENCH_CONVERSATION_EMBEDDER=bge…: a candidate model instead (bench/candidate-models.ts).
  const candidate = process.env.BENCH_CONVERSATION_EMBEDDER;
  const questions = halves.flatMap(([, cs]) => cs.flatMap((c) => c.questions.map((x) => x.q)));
  const embedder = candidate ? candidateEmbedders(questions)[candidate]?.[1] : buildEmbedder(config);
  if (!embedder) throw new Error(`no candidate model ${candidate} (set BENCH_CANDIDATES_DIR: bench/fetch-candidate-models.sh)`);
  const dataDir = await mkdtemp(path.join(tmpdir(), "cs-bench-conv-"));
  const lite = await openDatabase({ dataDir });
  const asked: AskedQuestion[] = [];
  const stored: RecallConversationBench["conversations"] = [];
  try {
    await migrateToLatest(lite.db);
    const engine = new SessionMemoryEngine({ store: new PostgresSessionStore(lite.db), clock, vectors: new LocalVectorIndex(new PostgresVectorRows(lite.db, { processCache: true })), embedder });
    for (const [half, convs] of halves) {
      for (const c of convs) {
        const scope: MemoryScope = { ...scopeFor(clock.now().getTime(), `conv-${c.id}`), expiresAt: clock.now().getTime() + 30 * DAY };
        const obs = observationsOf(c);
        const byFact = new Map<string, string>();
        for (const s of c.sessions) {
          const these = obs.filter((o) => o.session === s.n);
          const triples = these.map((o) => {
            const kind = classify(o.text, "user").kind;
            return { subject: o.subject, subject_type: o.subjectType, predicate: PREDICATE_PATTERN.test(kind) ? kind : "states", object: o.text, object_type: STATEMENT_TYPE };
          });
          const written = await engine.upsert(scope, { triples, source: `conversation ${c.id} session ${s.n}`, observed_at: Date.parse(`${s.date}T12:00:00Z`) });
          if (written.facts.length !== these.length) throw new Error(`${c.id} session ${s.n}: ${these.length} observations stored as ${written.facts.length} facts`);
          written.facts.forEach((f, i) => byFact.set(f.fact_id, these[i]!.id));
        }
        const status = await embedder.status?.();
        if (status?.fallback && process.env.BENCH_CONVERSATION_ALLOW_FALLBACK !== "1") throw new Error(`the embedder fell back to ${status.model} (${status.fallback}); the bench measures the sentence model`);
        stored.push({ half, id: c.id, kind: c.kind, observations: obs.length, questions: c.questions.length });
        note(`${half} ${c.id}: ${obs.length} observations stored, asking ${c.questions.length} questions`);
        for (const x of c.questions) {
          const lists: AskedQuestion["lists"] = {};
          for (const mode of modes) {
            const r = await engine.recall(scope, { query: x.q, limit: MAX_RECALL_LIMIT, mode });
            lists[mode] = r.results.map((f) => ({ id: byFact.get(f.fact_id) ?? f.fact_id, score: f.score, nodes: [f.subject.id, f.object.id] }));
          }
          const ids = (keys: string[] | undefined) => (keys ?? []).map((k) => `${c.id}.${k}`);
          asked.push({ half, conversation: c.id, kind: c.kind, q: x.q, category: x.category, evidence: ids(x.evidence), replaces: ids(x.replaces), lists });
        }
      }
    }
    return { asked, embedder: embedder.model, fusion: embedder.fusion?.conversation ?? DEFAULT_FUSION, stored };
  } finally {
    await lite.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Per question, the engine's lexical (BM25) and dense ranked lists (observation IDs and scores, top 50),
 * so the fusion can be re-run offline with other settings.
 */
export async function rankedLists(): Promise<Array<Omit<AskedQuestion, "lists"> & { lexical: RankedItem[]; dense: RankedItem[] }>> {
  const { asked } = await askAll(selectedHalves(), ["lexical", "dense"]);
  return asked.map(({ lists, ...x }) => ({ ...x, lexical: lists.lexical ?? [], dense: lists.dense ?? [] }));
}

/** 1-based rank of the first evidence observation in a ranked list, 0 when absent. */
function rankOf(list: RankedItem[], ids: readonly string[]): number {
  const i = list.findIndex((r) => ids.includes(r.id));
  return i < 0 ? 0 : i + 1;
}

/** The table row of one group of questions for one ranking (`listOf` picks or builds the list). */
function rowOf(half: Half, mode: string, category: string, qs: AskedQuestion[], listOf: (x: AskedQuestion) => RankedItem[]): ConversationRow {
  // MRR counts ranks up to 10, as recall-quality's score() does for the lists it is given.
  const ranks = qs.map((x) => rankOf(listOf(x), x.evidence)).map((r) => (r > 10 ? 0 : r));
  const base = qs.length > 0 ? score(ranks) : { n: 0, hit1: 0, hit5: 0, hit10: 0, mrr: 0 };
  const frac = (f: (x: AskedQuestion) => boolean, of: AskedQuestion[]) => (of.length === 0 ? "" : +(of.filter(f).length / of.length).toFixed(3));
  const multi = qs.filter((x) => x.evidence.length > 1 && x.category === "multi");
  const updates = qs.filter((x) => x.category === "update");
  const top5 = (x: AskedQuestion) => listOf(x).slice(0, 5);
  return {
    half,
    mode,
    category,
    ...base,
    all5: category === "multi" || category === "all" ? frac((x) => x.evidence.every((e) => top5(x).some((r) => r.id === e)), multi) : "",
    stale5: category === "update" || category === "all" ? frac((x) => {
      const stale = rankOf(top5(x), x.replaces);
      const fresh = rankOf(top5(x), x.evidence);
      return stale > 0 && (fresh === 0 || stale < fresh);
    }, updates) : "",
  };
}

/** Rows per category (and all, coding, everyday) of one half for one ranking. */
function rowsOf(half: Half, mode: string, qs: AskedQuestion[], listOf: (x: AskedQuestion) => RankedItem[]): ConversationRow[] {
  const mine = qs.filter((x) => x.half === half);
  return [
    rowOf(half, mode, "all", mine, listOf),
    ...CATEGORIES.map((c) => rowOf(half, mode, c, mine.filter((x) => x.category === c), listOf)),
    rowOf(half, mode, "(coding threads)", mine.filter((x) => x.kind === "coding"), listOf),
    rowOf(half, mode, "(everyday chats)", mine.filter((x) => x.kind === "everyday"), listOf),
  ];
}

/** A question's two real-path lists re-fused with `f` (bench/recall-quality.ts refuse). */
const refused = (f: Fusion) => (x: AskedQuestion) => refuse(x.lists.lexical ?? [], x.lists.dense ?? [], f, MAX_RECALL_LIMIT);

export async function benchRecallConversation(opts: { sweep?: boolean } = {}): Promise<RecallConversationBench> {
  const when = new Date().toISOString();
  const load = loadavg().map((l) => l.toFixed(2)).join(" ");
  const halves = selectedHalves();
  const texts = new Map(halves.flatMap(([, cs]) => cs.flatMap((c) => observationsOf(c).map((o) => [o.id, o.text] as const))));
  const { asked, embedder, fusion, stored } = await askAll(halves, MODES);
  const rows: ConversationRow[] = [];
  for (const [half] of halves) for (const mode of MODES) rows.push(...rowsOf(half, mode, asked, (x) => x.lists[mode] ?? []));
  const dev = asked.filter((x) => x.half === "dev");
  const refusedCheck = dev.length > 0 ? { engine_hit5: rowOf("dev", "fused", "all", dev, (x) => x.lists.fused ?? []).hit5, refused_hit5: rowOf("dev", "re-fused", "all", dev, refused(fusion)).hit5 } : null;
  const sweep: SweepCell[] = [];
  let chosen: RecallConversationBench["chosen"] = null;
  if (opts.sweep && dev.length > 0) {
    // Chosen on dev as bench/recall-quality.ts chooses: the best neighbourhood (bySmoothedDev).
    // Re-fusion is the served fusion here (session recall's BM25 sees the whole namespace either way).
    const cells: Array<{ f: Fusion; s: ConversationRow }> = [];
    for (const k of SWEEP.k)
      for (const denseWeight of SWEEP.denseWeight)
        for (const perNode of SWEEP.perNode) {
          const f = { k, denseWeight, perNode };
          const row = rowOf("dev", `re-fused k=${k} w=${denseWeight} cap=${perNode}`, "all", dev, refused(f));
          sweep.push({ k, weight: denseWeight, per_node: perNode, dev_hit1: row.hit1, dev_hit5: row.hit5, dev_mrr: row.mrr });
          cells.push({ f, s: row });
        }
    const held = asked.filter((x) => x.half === "held-out");
    const top = bySmoothedDev(cells)[0]!;
    const b = { f: top.f, row: top.s };
    chosen = { ...b.f, dev: b.row, heldOut: held.length > 0 ? rowOf("held-out", `re-fused k=${b.f.k} w=${b.f.denseWeight} cap=${b.f.perNode}`, "all", held, refused(b.f)) : null };
  }
  const missHalves = (process.env.BENCH_CONVERSATION_MISSES ?? "").split(",").filter(Boolean);
  const misses = asked
    .filter((x) => missHalves.includes(x.half) && rankOf((x.lists.fused ?? []).slice(0, 5), x.evidence) === 0)
    .map((x) => ({ half: x.half, q: x.q, category: x.category, evidence: x.evidence.map((e) => `${e}: ${texts.get(e)}`), got: (x.lists.fused ?? []).slice(0, 3).map((r) => `${r.id}: ${texts.get(r.id)}`) }));
  return { when, load, embedder, shipped: fusion, conversations: stored, rows, refusedCheck, sweep, chosen, misses };
}

export function printRecallConversation(r: RecallConversationBench): void {
  const n = (h: Half) => r.conversations.filter((c) => c.half === h);
  const sum = (cs: typeof r.conversations, f: (c: (typeof r.conversations)[number]) => number) => cs.reduce((s, c) => s + f(c), 0);
  console.log(`\n== conversational-memory recall (${r.when}, load average ${r.load}); embedder ${r.embedder}; engine fusion: RRF k=${r.shipped.k}, dense weight ${r.shipped.denseWeight}, per-node cap ${r.shipped.perNode}; limit ${MAX_RECALL_LIMIT}`);
  for (const h of ["dev", "held-out"] as const) {
    const cs = n(h);
    if (cs.length === 0) continue;
    console.log(`-- ${h} half: ${cs.length} conversations (${cs.filter((c) => c.kind === "coding").length} coding, ${cs.filter((c) => c.kind === "everyday").length} everyday), ${sum(cs, (c) => c.observations)} observations, ${sum(cs, (c) => c.questions)} questions`);
    console.table(r.rows.filter((x) => x.half === h).map(({ half: _h, ...x }) => x));
  }
  if (r.refusedCheck) console.log(`offline re-fusion at the engine's setting vs the engine's fused ranking, dev hit@5: ${r.refusedCheck.refused_hit5} vs ${r.refusedCheck.engine_hit5}`);
  if (r.sweep.length > 0) {
    console.log("== fusion sweep on the DEV half (re-fused lexical + dense top 50): hit@5 / MRR; rows k and per-node cap, columns dense weight");
    const grid: Record<string, Record<string, string>> = {};
    for (const c of r.sweep) (grid[`k=${c.k} cap=${c.per_node}`] ??= {})[`w=${c.weight}`] = `${c.dev_hit5.toFixed(3)} / ${c.dev_mrr.toFixed(3)}`;
    console.table(grid);
  }
  if (r.chosen) {
    console.log(`chosen on dev: k=${r.chosen.k}, dense weight ${r.chosen.denseWeight}, per-node cap ${r.chosen.perNode} (dev hit@1 ${r.chosen.dev.hit1}, hit@5 ${r.chosen.dev.hit5}, MRR ${r.chosen.dev.mrr})`);
    if (r.chosen.heldOut) {
      const h = r.chosen.heldOut;
      console.log(`held-out at the chosen setting (reported once): n ${h.n}, hit@1 ${h.hit1}, hit@5 ${h.hit5}, hit@10 ${h.hit10}, MRR ${h.mrr}, all@5 ${h.all5}, stale@5 ${h.stale5}`);
    }
  }
  for (const m of r.misses) console.log(`miss (${m.half}, ${m.category}): ${m.q}\n  evidence: ${m.evidence.join("\n            ")}\n  fused top 3: ${m.got.join("\n               ")}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printRecallConversation(await benchRecallConversation({ sweep: process.argv.includes("--sweep") || process.env.BENCH_CONVERSATION_SWEEP === "1" }));
  process.exit(0);
}

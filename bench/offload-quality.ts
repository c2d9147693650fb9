/**
 * What session memory learns from a thread's turns (`BENCH_ONLY=offload-quality npm run bench`).
 *
 * `start` on the embedded default (PGlite in a fresh data directory, the bundled sentence model),
 * driven only through the HTTP API as a runtime drives it: for every labelled thread
 * (bench/offload-quality-set.ts: the dev half; bench/offload-quality-held-out.ts: the held-out
 * half, never tuned on) a new thread is registered, its turns are offloaded in calls of at most
 * 64 turns (`POST …/session-memory/offload`), extraction is awaited through the namespace read's
 * `extraction.offloads`, and each question goes to `POST …/session-memory/recall` (limit 5).
 *
 * Scoring: a recalled fact answers when its text (subject, predicate, object) contains one of the
 * question's answer strings, case-insensitively. hit@1 / hit@5 per half and per kind. A correction
 * question is "new" when its top 5 holds the new value, and "stale alone" when its top 5 holds a
 * superseded value but not the new one (the target is none).
 * Also printed: facts per turn, extraction time per 100 turns (first offload sent → last call's
 * facts committed and their statements embedded), the namespace budget's counts (stored, repeats,
 * superseded, dropped, shortened), offloads refused or failed.
 *
 * BENCH_OFFLOAD_SPLIT=dev runs the dev half alone (what tuning looks at); BENCH_OFFLOAD_MISSES=dev
 * lists that half's unanswered questions; BENCH_OFFLOAD_THREAD=<dev thread> runs that one thread
 * and prints its facts and each question's top 5.
 *
 * Then requests during a long offload: one thread offloads 500 turns (the set's threads, one
 * after another) while a prober reads a job (`GET /api/v1/jobs/:id`) and `/healthz` every 50 ms;
 * p50/p99/max as bench/stall.ts prints them (target p99 < 250 ms).
 */
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../core/config";
import { silentLogger } from "../core/log";
import { MAX_OFFLOAD_TOTAL_CHARS, MAX_OFFLOAD_TURNS } from "../core/limits";
import type { ExtractionStats } from "../core/memory/extract/plan";
import { startPlatform } from "../main/runtime";
import { seedAccount } from "../test/support/fixtures";
import { row, type StallRow } from "./stall";
import { DEV_THREADS, type LabelledQuestion, type LabelledThread, type LabelledTurn } from "./offload-quality-set";

const PROBE_MS = 50;
const t0 = performance.now();
const note = (msg: string) => process.stderr.write(`[offload-quality ${((performance.now() - t0) / 1000).toFixed(0)}s] ${msg}\n`);

/** The namespace read's `extraction` counts. */
type Extraction = ExtractionStats;

export interface ThreadResult {
  name: string;
  split: "dev" | "held-out";
  turns: number;
  facts: number;
  extract_ms: number;
  extraction: Extraction;
  refused: number;
  questions: Array<{ kind: LabelledQuestion["kind"]; q: string; rank: number; stale_alone: boolean; correction: boolean }>;
}

export interface OffloadQualityResult {
  threads: ThreadResult[];
  failures: Record<string, number>;
  long: { turns: number; extract_ms: number; facts: number; extraction: Extraction; rows: StallRow[] };
}

type Json = Record<string, unknown>;

/** Calls of at most 64 turns and 64 KiB, as the route takes them. */
function chunks(turns: LabelledTurn[]): LabelledTurn[][] {
  const out: LabelledTurn[][] = [];
  let cur: LabelledTurn[] = [];
  let chars = 0;
  for (const t of turns) {
    if (cur.length >= MAX_OFFLOAD_TURNS || (chars + t.content.length > MAX_OFFLOAD_TOTAL_CHARS && cur.length > 0)) {
      out.push(cur);
      cur = [];
      chars = 0;
    }
    cur.push(t);
    chars += t.content.length;
  }
  if (cur.length) out.push(cur);
  return out;
}

export async function benchOffloadQuality(): Promise<OffloadQualityResult> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "cs-offload-q-"));
  const project = path.join(dataDir, "project");
  await mkdir(project);
  const config = loadConfig({ PORT: "0", CODESYNAPSE_DATA_DIR: path.join(dataDir, "data"), INGEST_ALLOWED_ROOTS: dataDir, LOG_LEVEL: "silent" });
  // The API only: no pool takes the probe's job, so it stays readable and nothing else competes.
  const platform = await startPlatform(config, { serve: true, pools: [], logger: silentLogger() });
  try {
    const base = platform.url!;
    const a = await seedAccount(platform.database.db);
    const auth = { authorization: `Bearer ${a.apiKey}`, "content-type": "application/json" };
    const api = async (method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: Json }> => {
      const r = await fetch(`${base}${url}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      return { status: r.status, body: (await r.json()) as Json };
    };
    const thread = async () => {
      const session = `oq-${randomBytes(6).toString("hex")}`;
      const reg = await api("POST", "/api/v1/execution/sessions", auth, { session_id: session });
      if (reg.status >= 300) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.body)}`);
      return { ...auth, "x-codesynapse-session": session, "x-codesynapse-parent-session": session };
    };
    const sm = (suffix = "") => `/api/v1/repos/${a.repoId}/session-memory${suffix}`;

    /** Offloads every turn and waits until the namespace has processed every call; the time it took. */
    const offload = async (headers: Record<string, string>, turns: LabelledTurn[]) => {
      const calls = chunks(turns);
      let refused = 0;
      const start = performance.now();
      let accepted = 0;
      for (const c of calls) {
        const r = await api("POST", sm("/offload"), headers, { turns: c.map((t) => ({ role: t.role, content: t.content, ...(t.id ? { id: t.id } : {}) })) });
        if (r.status === 202) accepted++;
        else refused++;
      }
      const before = platform.ctx.memory!.offload.failures;
      const failedBefore = [...before.values()].reduce((s, v) => s + v, 0);
      for (;;) {
        const read = await api("GET", sm("?limit=1"), headers);
        const ex = read.body["extraction"] as Extraction | undefined;
        const failedNow = [...platform.ctx.memory!.offload.failures.values()].reduce((s, v) => s + v, 0);
        if ((ex?.offloads ?? 0) + (failedNow - failedBefore) >= accepted) {
          // Committed; the statements' vectors are written right after: wait for those too.
          await platform.ctx.memory!.offload.drain();
          const ms = performance.now() - start;
          const all = await api("GET", sm("?limit=1000"), headers);
          return { ms, refused, extraction: ex!, facts: (all.body["facts"] as unknown[]).length };
        }
        if (performance.now() - start > 600_000) throw new Error("extraction did not finish within 10 minutes");
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    const threads: ThreadResult[] = [];
    const run = async (split: ThreadResult["split"], set: LabelledThread[]) => {
      for (const th of set) {
        const headers = await thread();
        const done = await offload(headers, th.turns);
        const questions: ThreadResult["questions"] = [];
        const dump = process.env.BENCH_OFFLOAD_THREAD === th.name && split === "dev";
        if (dump) {
          const all = await api("GET", sm("?limit=1000"), headers);
          for (const f of all.body["facts"] as Array<{ subject: { name: string }; predicate: string; object: { name: string } }>) console.log(`fact: [${f.subject.name}] ${f.predicate} :: ${f.object.name}`);
        }
        for (const q of th.questions) {
          const r = await api("POST", sm("/recall"), headers, { query: q.q, limit: 5 });
          const results = (r.body["results"] as Array<{ subject: { name: string }; predicate: string; object: { name: string } }> | undefined) ?? [];
          const texts = results.map((x) => `${x.subject.name} ${x.predicate} ${x.object.name}`.toLowerCase());
          const has = (t: string, words: string[]) => words.some((w) => t.includes(w.toLowerCase()));
          const rank = texts.findIndex((t) => has(t, q.answer)) + 1;
          const staleAlone = !!q.stale && rank === 0 && texts.some((t) => has(t, q.stale!));
          questions.push({ kind: q.kind, q: q.q, rank, stale_alone: staleAlone, correction: !!q.stale });
          if (dump) console.log(`\nQ ${q.q} → ${rank || "miss"} (${q.answer.join(" | ")})\n  ${texts.join("\n  ")}`);
        }
        threads.push({ name: th.name, split, turns: th.turns.length, facts: done.facts, extract_ms: Math.round(done.ms), extraction: done.extraction, refused: done.refused, questions });
        note(`${split} ${th.name}: ${th.turns.length} turns → ${done.facts} facts in ${Math.round(done.ms)} ms; ${questions.filter((x) => x.rank > 0).length}/${questions.length} answered`);
      }
    };
    // BENCH_OFFLOAD_SPLIT=dev: the dev half only (tuning never loads the held-out threads).
    const HELD_OUT_THREADS = process.env.BENCH_OFFLOAD_SPLIT === "dev" ? [] : (await import("./offload-quality-held-out")).HELD_OUT_THREADS;
    if (process.env.BENCH_OFFLOAD_THREAD) await run("dev", DEV_THREADS.filter((t) => t.name === process.env.BENCH_OFFLOAD_THREAD));
    else if (!process.env.BENCH_OFFLOAD_LONG_ONLY) {
      await run("dev", DEV_THREADS);
      await run("held-out", HELD_OUT_THREADS);
    }

    // Requests during a 500-turn offload.
    const longTurns: LabelledTurn[] = [];
    for (let i = 0; longTurns.length < 500; i++) longTurns.push(...[...DEV_THREADS, ...HELD_OUT_THREADS][i % (DEV_THREADS.length + HELD_OUT_THREADS.length)]!.turns);
    longTurns.length = 500;
    const headers = await thread();
    const job = await api("POST", `/api/v1/repos/${a.repoId}/ingest`, headers, { path: project });
    if (job.status !== 202) throw new Error(`probe job: ${job.status} ${JSON.stringify(job.body)}`);
    const jobUrl = `${base}/api/v1/jobs/${job.body["job_id"] as string}`;
    const reads: number[] = [];
    const health: number[] = [];
    let probing = true;
    const timed = async (url: string, into: number[]) => {
      const s = performance.now();
      await fetch(url, { headers }).then((r) => r.arrayBuffer()).catch(() => undefined);
      into.push(performance.now() - s);
    };
    const prober = (async () => {
      while (probing) await Promise.all([timed(jobUrl, reads), timed(`${base}/healthz`, health), new Promise((r) => setTimeout(r, PROBE_MS))]);
    })();
    const long = await offload(headers, longTurns);
    probing = false;
    await prober;
    note(`500 turns → ${long.facts} facts in ${Math.round(long.ms)} ms`);
    return {
      threads,
      failures: Object.fromEntries(platform.ctx.memory!.offload.failures),
      long: { turns: 500, extract_ms: Math.round(long.ms), facts: long.facts, extraction: long.extraction, rows: [row("GET /api/v1/jobs/:id", reads), row("GET /healthz", health)] },
    };
  } finally {
    await platform.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function printOffloadQuality(r: OffloadQualityResult): void {
  const r3 = (x: number) => +x.toFixed(3);
  const summary = (split: string, ts: ThreadResult[]) => {
    const qs = ts.flatMap((t) => t.questions);
    const turns = ts.reduce((s, t) => s + t.turns, 0);
    const corr = qs.filter((q) => q.correction);
    const sum = (k: keyof Extraction) => ts.reduce((s, t) => s + t.extraction[k], 0);
    return {
      split,
      threads: ts.length,
      turns,
      questions: qs.length,
      hit1: r3(qs.filter((q) => q.rank === 1).length / Math.max(1, qs.length)),
      hit5: r3(qs.filter((q) => q.rank > 0).length / Math.max(1, qs.length)),
      corrections: corr.length,
      corrections_new: corr.filter((q) => q.rank > 0).length,
      corrections_stale_alone: corr.filter((q) => q.stale_alone).length,
      facts_per_turn: r3(ts.reduce((s, t) => s + t.facts, 0) / Math.max(1, turns)),
      ms_per_100_turns: Math.round((ts.reduce((s, t) => s + t.extract_ms, 0) / Math.max(1, turns)) * 100),
      stored: sum("stored"),
      repeats: sum("repeats"),
      superseded: sum("superseded"),
      dropped: sum("dropped"),
      shortened: sum("shortened"),
      refused: ts.reduce((s, t) => s + t.refused, 0),
    };
  };
  const dev = r.threads.filter((t) => t.split === "dev");
  const held = r.threads.filter((t) => t.split === "held-out");
  console.log("\n## offload quality: what session memory answers from a thread's turns (HTTP API, embedded default; targets on held-out: hit@5 ≥ 0.8, corrections stale-alone 0, refused 0)");
  console.table([summary("dev", dev), summary("held-out", held)]);
  const kinds = [...new Set(r.threads.flatMap((t) => t.questions.map((q) => q.kind)))].sort();
  console.log("hit@5 by kind of question");
  console.table(
    kinds.map((kind) => {
      const of = (ts: ThreadResult[]) => ts.flatMap((t) => t.questions).filter((q) => q.kind === kind);
      const h = (qs: ReturnType<typeof of>) => (qs.length ? r3(qs.filter((q) => q.rank > 0).length / qs.length) : null);
      return { kind, dev_n: of(dev).length, dev_hit5: h(of(dev)), held_n: of(held).length, held_hit5: h(of(held)) };
    }),
  );
  console.log("per thread");
  console.table(r.threads.map((t) => ({ split: t.split, thread: t.name, turns: t.turns, facts: t.facts, ms: t.extract_ms, hit5: `${t.questions.filter((q) => q.rank > 0).length}/${t.questions.length}`, dropped: t.extraction.dropped, superseded: t.extraction.superseded })));
  if (process.env.BENCH_OFFLOAD_MISSES) {
    for (const t of r.threads.filter((x) => x.split === process.env.BENCH_OFFLOAD_MISSES)) for (const q of t.questions.filter((x) => x.rank === 0)) console.log(`miss ${t.name}: ${q.q}${q.stale_alone ? " (stale alone)" : ""}`);
  }
  console.log(`offload failures by code: ${JSON.stringify(r.failures)}`);
  console.log(`\n## requests during an offload of ${r.long.turns} turns (${r.long.extract_ms} ms to extract, ${Math.round((r.long.extract_ms / r.long.turns) * 100)} ms per 100 turns; ${r.long.facts} facts; dropped ${r.long.extraction.dropped}; target job-read p99 < 250 ms)`);
  console.table(r.long.rows);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printOffloadQuality(await benchOffloadQuality());
  process.exit(0);
}

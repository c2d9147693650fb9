/**
 * Offload (OFF-1..3): turns are bounded, redacted, then queued in this
 * process's memory only. A single drain loop takes one batch at a time,
 * re-authorizes (the route hands a `recheck` that re-runs authorize() for the
 * binding and repository), extracts statements with the local extractor and
 * commits what the planner (extract/plan.ts) makes of them — repeats merged,
 * corrections superseding, the namespace budget kept — in one write under the
 * rechecked scope. Each fact's source names its turns: the runtime's turn `id`,
 * else `<offload id> turn <n>` (1-based position in the call).
 *
 * Nothing is persisted: `close()` (shutdown) drops pending batches, and a
 * restart starts empty — offloaded turns are never replayed. Turn text never
 * reaches a log: failures are reported by error code only.
 */
import { AppError, limitError } from "../errors";
import { MAX_OFFLOAD_QUEUE_BATCHES, MAX_OFFLOAD_TOTAL_CHARS, MAX_OFFLOAD_TURN_CHARS, MAX_OFFLOAD_TURNS } from "../limits";
import { redact } from "../redact";
import { randomBytes } from "node:crypto";
import type { MemoryScope, SessionMemoryEngine } from "./engine";
import type { Extractor, Turn } from "./extractor";
import { addStats, NO_STATS, planExtraction, type ExtractionStats } from "./extract/plan";

export interface OffloadBatch {
  /** Re-runs authorization (binding, membership, key, repository) and returns the scope to write to. */
  recheck: () => Promise<MemoryScope>;
  turns: Turn[];
  /** Names the call in the sources of the facts it produced. */
  id: string;
}

export type OffloadOutcome = ({ stored: number } & ExtractionStats) | { refused: string };

/** A full session or tenant quota: extraction then only replaces what it extracted before. */
const QUOTA_LIMITS = new Set(["live_facts_per_session", "live_facts_per_tenant"]);

export class OffloadQueue {
  private readonly pending: OffloadBatch[] = [];
  private running: Promise<void> | null = null;
  private closed = false;
  /** Outcomes of processed batches (counts and codes only), for tests. */
  readonly outcomes: OffloadOutcome[] = [];
  /** This process's running extraction counts over every namespace, and failures by code (metrics: no session labels). */
  readonly totals: ExtractionStats = { ...NO_STATS };
  readonly failures = new Map<string, number>();

  constructor(
    private readonly deps: {
      engine: SessionMemoryEngine;
      extractor: Extractor;
      maxBatches?: number;
      onWarning?: (event: string, code: string) => void;
    },
  ) {}

  get depth(): number {
    return this.pending.length;
  }

  /** Bounds and redacts the turns, then queues them. Throws a limit error when full; never blocks on extraction. */
  async submit(scope: MemoryScope, turns: Turn[], recheck: () => Promise<MemoryScope>): Promise<{ offload_id: string }> {
    if (this.closed) throw new AppError("unavailable", { message: "The offload queue is shut down." });
    if (!Array.isArray(turns) || turns.length < 1 || turns.length > MAX_OFFLOAD_TURNS) throw limitError("offload_turns", MAX_OFFLOAD_TURNS);
    let total = 0;
    for (const t of turns) {
      if (typeof t.content !== "string" || t.content.length > MAX_OFFLOAD_TURN_CHARS) throw limitError("offload_turn_chars", MAX_OFFLOAD_TURN_CHARS);
      total += t.content.length;
    }
    if (total > MAX_OFFLOAD_TOTAL_CHARS) throw limitError("offload_total_chars", MAX_OFFLOAD_TOTAL_CHARS);
    const max = this.deps.maxBatches ?? MAX_OFFLOAD_QUEUE_BATCHES;
    if (this.pending.length >= max) throw limitError("offload_queue_batches", max);
    void scope;
    // Redact before the turns are held anywhere.
    const clean: Turn[] = [];
    for (const t of turns) clean.push({ role: t.role, content: (await redact(t.content)).text, ...(t.id !== undefined ? { id: t.id } : {}) });
    if (this.closed) throw new AppError("unavailable", { message: "The offload queue is shut down." });
    const id = `of_${randomBytes(6).toString("hex")}`;
    this.pending.push({ turns: clean, recheck, id });
    this.kick();
    return { offload_id: id };
  }

  private kick(): void {
    if (this.running || this.closed) return;
    this.running = (async () => {
      while (!this.closed) {
        const batch = this.pending.shift();
        if (!batch) break;
        this.outcomes.push(await this.process(batch));
        if (this.outcomes.length > 1000) this.outcomes.splice(0, this.outcomes.length - 1000);
      }
    })().finally(() => {
      this.running = null;
      if (this.pending.length > 0 && !this.closed) this.kick();
    });
  }

  private async process(batch: OffloadBatch): Promise<OffloadOutcome> {
    try {
      const scope = await batch.recheck();
      const statements = await this.deps.extractor.extract(scope.identity, batch.turns);
      const refs = batch.turns.map((t, i) => (t.id !== undefined ? `turn ${t.id}` : `${batch.id} turn ${i + 1}`));
      const sessionId = scope.identity.session_id;
      const commit = (growth: boolean) =>
        this.deps.engine.mutate(scope, (current, now) => {
          const plan = planExtraction({ key: current.key, sessionId, now, current, statements, refs, turns: batch.turns.length, growth });
          return { content: plan.content, added: plan.added, result: plan.stats };
        });
      let stats: ExtractionStats = { ...NO_STATS, offloads: 1, turns: batch.turns.length };
      // Nothing durable said: nothing to write.
      if (statements.length > 0) {
        try {
          stats = await commit(true);
        } catch (err) {
          if (!(err instanceof AppError && err.code === "limit_exceeded" && QUOTA_LIMITS.has(String(err.details?.["limit"])))) throw err;
          stats = await commit(false);
        }
      }
      Object.assign(this.totals, addStats(this.totals, stats));
      return { ...stats };
    } catch (err) {
      const code = err instanceof AppError ? err.code : "internal";
      this.failures.set(code, (this.failures.get(code) ?? 0) + 1);
      this.deps.onWarning?.("offload_failed", code);
      return { refused: code };
    }
  }

  /** Waits until every queued batch is processed (tests, graceful drain). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Shutdown: drops every pending batch. They are never replayed. */
  close(): number {
    this.closed = true;
    const dropped = this.pending.length;
    this.pending.length = 0;
    return dropped;
  }
}

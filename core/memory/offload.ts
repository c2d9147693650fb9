/**
 * Offload (OFF-1, OFF-2): turns are bounded, redacted, then queued in this
 * process's memory only. A single drain loop takes one batch at a time,
 * re-authorizes (the route hands a `recheck` that re-runs authorize() for the
 * binding and repository), extracts triples with the local extractor and
 * upserts them into session memory under the rechecked scope.
 *
 * Nothing is persisted: `close()` (shutdown) drops pending batches, and a
 * restart starts empty — offloaded turns are never replayed. Turn text never
 * reaches a log: failures are reported by error code only.
 */
import { AppError, limitError } from "../errors";
import { MAX_OFFLOAD_QUEUE_BATCHES, MAX_OFFLOAD_TOTAL_CHARS, MAX_OFFLOAD_TURN_CHARS, MAX_OFFLOAD_TURNS } from "../limits";
import { redact } from "../redact";
import type { MemoryScope, SessionMemoryEngine } from "./engine";
import type { Extractor, Turn } from "./extractor";

export interface OffloadBatch {
  /** Re-runs authorization (binding, membership, key, repository) and returns the scope to write to. */
  recheck: () => Promise<MemoryScope>;
  turns: Turn[];
}

export type OffloadOutcome = { stored: number } | { refused: string };

export class OffloadQueue {
  private readonly pending: OffloadBatch[] = [];
  private running: Promise<void> | null = null;
  private closed = false;
  /** Outcomes of processed batches (counts and codes only), for tests and metrics. */
  readonly outcomes: OffloadOutcome[] = [];

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
  async submit(scope: MemoryScope, turns: Turn[], recheck: () => Promise<MemoryScope>): Promise<void> {
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
    for (const t of turns) clean.push({ role: t.role, content: (await redact(t.content)).text });
    if (this.closed) throw new AppError("unavailable", { message: "The offload queue is shut down." });
    this.pending.push({ turns: clean, recheck });
    this.kick();
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
      const triples = (await this.deps.extractor.extract(scope.identity, batch.turns)).flatMap((x) => x.links ?? []);
      if (triples.length === 0) return { stored: 0 };
      const r = await this.deps.engine.upsert(scope, { triples: triples.slice(0, 256), source: "offload" });
      return { stored: r.facts.length };
    } catch (err) {
      const code = err instanceof AppError ? err.code : "internal";
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

/**
 * A repository's recall (docs/jobs.md "Follow-up jobs"): `complete` when every durable node has a
 * vector for the embedding model that serves now (or no embedder is configured: recall is lexical
 * only, and nothing is pending), else `partial` — answers then rank by keywords and graph alone
 * for the nodes without one, until the embedding follow-ups of the ingest have run.
 */
import type { RepositoryMemory } from "../core/memory/repository";
import type { Db, Tx } from "../db/schema";
import { embeddingUnderway } from "./sql/followUps";

export const RECALL_STATES = ["complete", "partial"] as const;
export type RecallState = (typeof RECALL_STATES)[number];

export type RecallSource = Pick<RepositoryMemory, "embeddingsMissing">;

export async function recallOf(repository: RecallSource, repoId: string): Promise<RecallState> {
  return (await repository.embeddingsMissing(repoId)) ? "partial" : "complete";
}

/**
 * Waits while the repository's recall is partial and an embedding job of it is queued or running,
 * checking every `pollMs`, for at most `maxMs`; ends early when `signal` aborts (a cancel, a lost
 * lease, shutdown). Answers the recall it ended with.
 */
export async function waitForRecall(
  db: Db | Tx,
  repository: RecallSource,
  repoId: string,
  o: { maxMs: number; pollMs: number; signal: AbortSignal; now?: () => number },
): Promise<RecallState> {
  const now = o.now ?? (() => performance.now());
  const until = now() + o.maxMs;
  for (;;) {
    // Whether vectors are on their way is read first: an embedding job that ends between the two
    // reads has written its vectors by then, so the recall read after it sees them.
    const underway = await embeddingUnderway(db, repoId);
    const recall = await recallOf(repository, repoId);
    if (recall === "complete" || !underway || o.signal.aborted) return recall;
    const left = until - now();
    if (left <= 0) return recall;
    await sleepOrAbort(Math.min(o.pollMs, left), o.signal);
  }
}

function sleepOrAbort(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

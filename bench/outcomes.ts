/** JobMetrics that also tells a bench, in process, when an outcome has been written (bench/jobs.ts, bench/pglite-socket.ts). */
import { JobMetrics, type JobOutcomeLabel } from "../queues/metrics";

export class Outcomes extends JobMetrics {
  succeeded = 0;
  #next: Array<() => void> = [];
  override finished(pool: string, kind: string, outcome: JobOutcomeLabel, seconds: number): void {
    super.finished(pool, kind, outcome, seconds);
    if (outcome !== "succeeded") return;
    this.succeeded++;
    for (const r of this.#next.splice(0)) r();
  }
  nextSucceeded(): Promise<void> {
    return new Promise((r) => this.#next.push(r));
  }
}

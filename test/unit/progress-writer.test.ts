/** workers/progress.ts: newest value wins, one write in flight, in order, settled() waits for the last. */
import { expect, it } from "vitest";
import { ProgressWriter } from "../../workers/progress";

it("coalesces reports made during a write, keeps order, and settles after the last", async () => {
  const writes: Array<[number, number]> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const w = new ProgressWriter(async (done, total) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 5));
    writes.push([done, total]);
    inFlight--;
  });
  for (let i = 1; i <= 50; i++) void w.report(i, 50);
  await w.settled();
  expect(maxInFlight).toBe(1);
  expect(writes[0]).toEqual([1, 50]);
  expect(writes.at(-1)).toEqual([50, 50]);
  expect(writes.length).toBeLessThanOrEqual(3);
  const dones = writes.map(([d]) => d);
  expect([...dones].sort((a, b) => a - b)).toEqual(dones);
});

it("a failed write does not stop the next one, and settled() never rejects", async () => {
  const writes: number[] = [];
  let first = true;
  const w = new ProgressWriter(async (done) => {
    if (first) {
      first = false;
      throw new Error("database gone");
    }
    writes.push(done);
  });
  void w.report(1, 2);
  await w.settled();
  void w.report(2, 2);
  await expect(w.settled()).resolves.toBeUndefined();
  expect(writes).toEqual([2]);
});

/**
 * core/coalescer.ts: requests made in one tick go out together, and those made
 * while a flush is in flight go out together in the next one; a batch that fails (not transiently) is sent again member
 * by member, so only the bad member fails, with its own error.
 */
import { describe, expect, it } from "vitest";
import { Coalescer, type CoalescerOptions } from "../../core/coalescer";

/** A flush that answers `x * 10`, throws its own error for a poisoned member, and records every call. */
function recorder(o: { poisoned?: (x: number) => boolean; transient?: (items: number[]) => boolean } = {}) {
  const calls: number[][] = [];
  const flush = async (items: number[]): Promise<number[]> => {
    calls.push([...items]);
    await new Promise((r) => setTimeout(r, 1));
    if (o.transient?.(items)) throw Object.assign(new Error("connection terminated unexpectedly"), { code: "ECONNRESET" });
    const bad = items.find((x) => o.poisoned?.(x));
    if (bad !== undefined) throw Object.assign(new Error(`poisoned ${bad}`), { code: "22021" });
    return items.map((x) => x * 10);
  };
  return { calls, flush };
}

/** Runs `items` in the same tick; resolves to what each got, in the order the answers arrived. */
async function runAll(c: Coalescer<number, number>, items: number[]) {
  const order: number[] = [];
  const settled = await Promise.allSettled(
    items.map((x) =>
      c.run(x).finally(() => {
        order.push(x);
      }),
    ),
  );
  return { settled, order, values: settled.map((s) => (s.status === "fulfilled" ? s.value : (s.reason as Error).message)) };
}

const make = (flush: (items: number[]) => Promise<number[]>, o?: CoalescerOptions) => new Coalescer<number, number>(flush, o);

describe("Coalescer", () => {
  it("sends the requests made in one tick together, at most `max` per flush", async () => {
    const r = recorder();
    const { values } = await runAll(make(r.flush, { max: 3 }), [1, 2, 3, 4]);
    expect(values).toEqual([10, 20, 30, 40]);
    expect(r.calls).toEqual([[1, 2, 3], [4]]);
  });

  it("requests made by the continuations of one batch's answers go out together, not the first alone", async () => {
    const r = recorder();
    const c = make(r.flush);
    // Each caller asks again once its first answer is in (as a job's recheck is followed by its finish).
    const twice = (x: number) => c.run(x).then((y) => c.run(y));
    expect(await Promise.all([1, 2, 3].map(twice))).toEqual([100, 200, 300]);
    expect(r.calls).toEqual([[1, 2, 3], [10, 20, 30]]);
  });

  it("one poisoned member: only it fails, with its own error; the others get their own answers, in order", async () => {
    const r = recorder({ poisoned: (x) => x === 3 });
    const { settled, order, values } = await runAll(make(r.flush), [1, 2, 3, 4, 5]);
    expect(values).toEqual([10, 20, "poisoned 3", 40, 50]);
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ code: "22021" });
    expect(order).toEqual([1, 2, 3, 4, 5]);
    // The batch once, then each of its members alone.
    expect(r.calls).toEqual([[1, 2, 3, 4, 5], [1], [2], [3], [4], [5]]);
  });

  it("every member poisoned: each fails with its own error", async () => {
    const r = recorder({ poisoned: () => true });
    const { values } = await runAll(make(r.flush), [1, 2, 3, 4]);
    expect(values).toEqual(["poisoned 1", "poisoned 2", "poisoned 3", "poisoned 4"]);
    expect(r.calls).toEqual([[1, 2, 3, 4], [1], [2], [3], [4]]);
  });

  it("a member that was alone is not sent twice", async () => {
    const r = recorder({ poisoned: () => true });
    const c = make(r.flush);
    await expect(c.run(7)).rejects.toThrow("poisoned 7");
    expect(r.calls).toEqual([[7]]);
  });

  it("a transient failure of the batch is not split: every member gets it, the flush ran once", async () => {
    const r = recorder({ transient: (items) => items.length > 1 });
    const { settled } = await runAll(make(r.flush), [0, 1, 2, 3]);
    for (const s of settled) expect(s).toMatchObject({ status: "rejected", reason: { code: "ECONNRESET" } });
    expect(r.calls).toEqual([[0, 1, 2, 3]]);
  });

  it("a transient error while members are sent alone stops the splitting: that member and the rest get it", async () => {
    const r = recorder({ poisoned: (x) => x === 2, transient: (items) => items.length === 1 && items[0] === 3 });
    const { settled, values } = await runAll(make(r.flush), [1, 2, 3, 4, 5]);
    expect(values.slice(0, 2)).toEqual([10, "poisoned 2"]);
    for (const s of settled.slice(2)) expect(s).toMatchObject({ status: "rejected", reason: { code: "ECONNRESET" } });
    expect(r.calls).toEqual([[1, 2, 3, 4, 5], [1], [2], [3]]);
  });

  it("isolate: false rejects the whole batch with its error, as one flush", async () => {
    const r = recorder({ poisoned: (x) => x === 3 });
    const { values } = await runAll(make(r.flush, { isolate: false }), [1, 2, 3, 4]);
    expect(values).toEqual(["poisoned 3", "poisoned 3", "poisoned 3", "poisoned 3"]);
    expect(r.calls).toEqual([[1, 2, 3, 4]]);
  });

  it("every answer comes from a flush that started after the request, also while a failed batch is split", async () => {
    const started: Array<{ items: number[]; at: number }> = [];
    const made = new Map<number, number>();
    let tick = 0;
    let late: Array<Promise<number>> = [];
    const c = make(async (items) => {
      started.push({ items: [...items], at: tick++ });
      // Made while the batch [1, 2, 3] is in flight (it fails and is split): they wait for a later flush, not the singles.
      if (items.length === 3) late = [run(4), run(5)];
      await new Promise((r) => setTimeout(r, 1));
      if (items.includes(2) && items.length > 1) throw new Error("poisoned batch");
      return items.map((x) => x * 10);
    });
    const run = (x: number) => {
      made.set(x, tick++);
      return c.run(x);
    };
    const first = [run(1), run(2), run(3)];
    expect(await Promise.all(first)).toEqual([10, 20, 30]);
    expect(await Promise.all(late)).toEqual([40, 50]);
    expect(started.map((s) => s.items)).toEqual([[1, 2, 3], [1], [2], [3], [4, 5]]);
    for (const [x, at] of made) {
      const answeredBy = started.filter((s) => s.items.includes(x)).at(-1)!;
      expect(answeredBy.at).toBeGreaterThan(at);
    }
  });
});

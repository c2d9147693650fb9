/**
 * core/coalescer.ts PipelinedCoalescer: a batch's read (`check`) runs while the
 * previous batch is written; every request is read by a check that started after it was
 * made, then written by its own batch's write; writes one at a time, in order (or `writers`
 * at once, started in order); a batch that fails (not transiently) is sent again member by member.
 */
import { describe, expect, it } from "vitest";
import { PipelinedCoalescer } from "../../core/coalescer";

const tick = (ms = 2) => new Promise((r) => setTimeout(r, ms));

function recorder(o: { poisonedWrite?: (x: number) => boolean; transient?: boolean } = {}) {
  const log: string[] = [];
  let writing = 0;
  let maxWriting = 0;
  let checking = 0;
  let maxChecking = 0;
  const check = async (items: number[]) => {
    checking++;
    maxChecking = Math.max(maxChecking, checking);
    log.push(`check ${items.join(",")}`);
    await tick();
    checking--;
    return items.map((x) => x * 10);
  };
  const write = async (items: number[], checked: number[]) => {
    writing++;
    maxWriting = Math.max(maxWriting, writing);
    log.push(`write ${items.join(",")}`);
    await tick(5);
    writing--;
    if (o.transient) throw Object.assign(new Error("connection terminated unexpectedly"), { code: "ECONNRESET" });
    const bad = items.find((x) => o.poisonedWrite?.(x));
    if (bad !== undefined) throw Object.assign(new Error(`poisoned ${bad}`), { code: "22021" });
    return checked.map((c) => c + 1);
  };
  return { log, check, write, max: () => ({ writing: maxWriting, checking: maxChecking }) };
}

describe("PipelinedCoalescer", () => {
  it("reads the next batch while the previous one is written; each answer is its own batch's read then write", async () => {
    // Every step waits until the test opens it, so the interleaving is exact.
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    const step = (name: string) => {
      log.push(name);
      return new Promise<void>((r) => gates.set(name, r));
    };
    const open = async (name: string) => {
      while (!gates.has(name)) await tick(1);
      gates.get(name)!();
      await tick(1);
    };
    const p = new PipelinedCoalescer<number, number[], number>(
      async (items) => (await step(`check ${items.join(",")}`), items.map((x) => x * 10)),
      async (items, c) => (await step(`write ${items.join(",")}`), c.map((x) => x + 1)),
    );
    const a = p.run(1);
    await tick(1); // 1's read is under way
    const b = [p.run(2), p.run(3)]; // made while 1 is read: the next batch
    await open("check 1"); // 1 is read; its write starts
    expect(log).toEqual(["check 1", "write 1", "check 2,3"]); // 2,3 read while 1 is written
    const c = p.run(4);
    await open("check 2,3");
    // 4 is not read before 1's write has ended (a read runs at most one write ahead), and 2,3 wait for 1's write.
    expect(log).toEqual(["check 1", "write 1", "check 2,3"]);
    await open("write 1");
    expect(log).toEqual(["check 1", "write 1", "check 2,3", "write 2,3", "check 4"]);
    await open("check 4");
    await open("write 2,3");
    await open("write 4");
    expect(await Promise.all([a, ...b, c])).toEqual([11, 21, 31, 41]);
    expect(log).toEqual(["check 1", "write 1", "check 2,3", "write 2,3", "check 4", "write 4"]);
  });

  it("with writers: 2, two batches are written at once and never three; every request still read by its own batch's check", async () => {
    const r = recorder();
    const p = new PipelinedCoalescer<number, number[], number>(r.check, r.write, { writers: 2 });
    const runs: Array<Promise<number>> = [];
    for (let x = 1; x <= 40; x++) {
      runs.push(p.run(x));
      await tick(1);
    }
    expect(await Promise.all(runs)).toEqual(runs.map((_, i) => (i + 1) * 10 + 1));
    expect(r.max()).toEqual({ writing: 2, checking: 1 });
    // Writes start in batch order, each after its batch's check.
    const writes = r.log.filter((l) => l.startsWith("write"));
    const checks = r.log.filter((l) => l.startsWith("check"));
    expect(writes.map((w) => w.slice(6))).toEqual(checks.map((c) => c.slice(6)));
    for (const w of writes) expect(r.log.indexOf(w)).toBeGreaterThan(r.log.indexOf(`check ${w.slice(6)}`));
  });

  it("with the default, writes never overlap", async () => {
    const r = recorder();
    const p = new PipelinedCoalescer<number, number[], number>(r.check, r.write);
    const runs: Array<Promise<number>> = [];
    for (let x = 1; x <= 20; x++) {
      runs.push(p.run(x));
      await tick(1);
    }
    await Promise.all(runs);
    expect(r.max().writing).toBe(1);
  });

  it("a request made during a check is not answered by that check", async () => {
    const r = recorder();
    const p = new PipelinedCoalescer<number, number[], number>(r.check, r.write);
    const a = p.run(1);
    await tick(1); // check 1 in flight
    const b = p.run(2);
    await Promise.all([a, b]);
    expect(r.log).toContain("check 1");
    expect(r.log).toContain("check 2");
    expect(r.log).not.toContain("check 1,2");
  });

  it("a poisoned member fails alone, with its own error; the others are read again and written", async () => {
    const r = recorder({ poisonedWrite: (x) => x === 3 });
    const p = new PipelinedCoalescer<number, number[], number>(r.check, r.write);
    const out = await Promise.allSettled([1, 2, 3, 4].map((x) => p.run(x)));
    expect(out.map((s) => (s.status === "fulfilled" ? s.value : (s.reason as Error).message))).toEqual([11, 21, "poisoned 3", 41]);
    expect(r.log[0]).toBe("check 1,2,3,4"); // made in one tick: one batch
    // Each member of the failed batch alone: read, then write.
    for (const x of [2, 3, 4]) expect(r.log.indexOf(`write ${x}`)).toBeGreaterThan(r.log.lastIndexOf(`check ${x}`) - 0);
  });

  it("a transient error reaches every member of the batch and is not split", async () => {
    const r = recorder({ transient: true });
    const p = new PipelinedCoalescer<number, number[], number>(r.check, r.write);
    const out = await Promise.allSettled([1, 2, 3].map((x) => p.run(x)));
    expect(out.every((s) => s.status === "rejected")).toBe(true);
    expect(r.log.filter((l) => l.startsWith("write"))).toEqual(["write 1,2,3"]);
  });
});

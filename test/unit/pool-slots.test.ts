/**
 * workers/sources/slots.ts: at most `concurrency` handlers start at once whatever was claimed;
 * claims grow past the free handler slots only while claims come back full (a backlog) and
 * jobs end fast; the growth is withdrawn when outcomes back up (the 2 × concurrency bound
 * returns) and dropped when a claim comes back short; `adaptive: false` never grows.
 */
import { describe, expect, it } from "vitest";
import { PREFETCH_PER_SLOT, PoolSlots, type Slot } from "../../workers/sources/slots";

/** Claims `n` jobs, runs each handler at once (a no-op), and writes no outcome yet. */
async function claimAndRun(s: PoolSlots, n: number): Promise<Slot[]> {
  const slots = Array.from({ length: n }, () => s.take());
  for (const slot of slots) {
    await slot.start();
    slot.handlerDone();
  }
  return slots;
}

describe("PoolSlots", () => {
  it("claims one job per free handler slot until a backlog shows, then further ahead, handlers still bounded", async () => {
    const s = new PoolSlots(4);
    expect(s.free).toBe(4);
    // A full claim of fast jobs: the pace is known, the next claim may reach further.
    const first = await claimAndRun(s, 4);
    first.forEach((x) => x.done());
    s.claimed(4, 4);
    expect(s.prefetch).toBe(4);
    expect(s.free).toBe(8);
    s.claimed(8, 8);
    expect(s.free).toBe(12);
    for (let i = 0; i < 20; i++) s.claimed(s.free, s.free);
    expect(s.prefetch).toBe(PREFETCH_PER_SLOT * 4);

    // However many are claimed, at most 4 handlers run; the others wait for a slot.
    const claimed = Array.from({ length: 10 }, () => s.take());
    let running = 0;
    let maxRunning = 0;
    const runs = claimed.map(async (slot) => {
      await slot.start();
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 2));
      running--;
      slot.handlerDone();
      slot.done();
    });
    await Promise.all(runs);
    expect(maxRunning).toBe(4);
    // A short claim: drained, back to one per free handler slot.
    s.claimed(8, 3);
    expect(s.prefetch).toBe(0);
    expect(s.free).toBe(4);
  });

  it("outcomes that cannot be written withdraw the prefetch: at most 2 × concurrency held, then no claim", async () => {
    const s = new PoolSlots(2);
    (await claimAndRun(s, 2)).forEach((x) => x.done());
    s.claimed(2, 2);
    expect(s.free).toBe(4);
    // Two handlers return, their outcomes are stuck: prefetch off, room for the 2 × 2 bound only.
    const stuck = await claimAndRun(s, 2);
    expect(s.prefetch).toBe(0);
    expect(s.free).toBe(2);
    const more = await claimAndRun(s, 2);
    expect(s.held).toBe(4);
    expect(s.free).toBe(0);
    [...stuck, ...more].forEach((x) => x.done());
    expect(s.free).toBe(4);
  });

  it("slow jobs keep the claim at the free handler slots", async () => {
    const s = new PoolSlots(2);
    const slots = [s.take(), s.take()];
    for (const x of slots) await x.start();
    // One job ends every 300 ms: nothing claimed ahead could start within the budget.
    for (const x of slots) {
      await new Promise((r) => setTimeout(r, 300));
      x.handlerDone();
      x.done();
    }
    s.claimed(2, 2);
    expect(s.prefetch).toBe(0);
    expect(s.free).toBe(2);
  });

  it("adaptive: false never claims ahead", async () => {
    const s = new PoolSlots(3, undefined, { adaptive: false });
    (await claimAndRun(s, 3)).forEach((x) => x.done());
    s.claimed(3, 3);
    expect(s.prefetch).toBe(0);
    expect(s.free).toBe(3);
  });

  it("a job that ends while waiting for a handler slot passes the slot on", async () => {
    const s = new PoolSlots(1);
    const a = s.take();
    await a.start();
    const b = s.take();
    const c = s.take();
    let bStarted = false;
    let cStarted = false;
    void b.start().then(() => (bStarted = true));
    void c.start().then(() => (cStarted = true));
    b.done(); // canceled while it waited
    a.handlerDone();
    a.done();
    await new Promise((r) => setTimeout(r, 5));
    expect(cStarted).toBe(true);
    c.handlerDone();
    c.done();
    expect(bStarted).toBe(true); // resolved, but it never held a handler
    expect(s.free).toBe(1);
  });
});

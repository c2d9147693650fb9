/**
 * The turn hand-off's pure parts (main/hook/handoff.ts): which transcript lines are turns, and how
 * turns are cut into offload requests the server accepts (its turn, length and total limits) while
 * every byte of the transcript is accounted for by an offset.
 */
import { describe, expect, it } from "vitest";
import { MAX_OFFLOAD_TOTAL_CHARS, MAX_OFFLOAD_TURN_CHARS, MAX_OFFLOAD_TURNS } from "../../core/limits";
import { batches, turnsOfLine } from "../../main/hook/handoff";

describe("transcript turns", () => {
  it("user and assistant text, tool results as tool turns; tool calls, summaries, side chains and noise are not turns", () => {
    expect(turnsOfLine(JSON.stringify({ type: "user", message: { role: "user", content: "hi" } }))).toEqual([{ role: "user", content: "hi" }]);
    expect(turnsOfLine(JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: "a" }, { type: "tool_use", name: "Read" }, { type: "text", text: "b" }] } }))).toEqual([
      { role: "assistant", content: "a\nb" },
    ]);
    expect(turnsOfLine(JSON.stringify({ type: "user", message: { content: [{ type: "tool_result", content: [{ type: "text", text: "out" }] }] } }))).toEqual([{ role: "tool", content: "out" }]);
    for (const line of [
      JSON.stringify({ type: "summary", summary: "s" }),
      JSON.stringify({ type: "user", isSidechain: true, message: { content: "sub-agent" } }),
      JSON.stringify({ type: "user", isMeta: true, message: { content: "meta" } }),
      JSON.stringify({ type: "assistant", message: { content: [{ type: "tool_use", name: "Bash" }] } }),
      JSON.stringify({ type: "user", message: { content: "   " } }),
      "not json",
      "",
    ])
      expect(turnsOfLine(line), line).toEqual([]);
    expect(turnsOfLine(JSON.stringify({ type: "user", message: { content: "x".repeat(MAX_OFFLOAD_TURN_CHARS + 5) } }))[0]!.content).toHaveLength(MAX_OFFLOAD_TURN_CHARS);
  });

  it("requests stay within the server's limits, and their offsets cover every line in order", () => {
    const lines = Array.from({ length: 200 }, (_, i) => ({ end: (i + 1) * 10, turns: [{ role: "user" as const, content: "y".repeat(i % 3 === 0 ? 4_000 : 10) }] }));
    lines.splice(50, 0, { end: 505, turns: [] });
    const out = batches(lines);
    expect(out.length).toBeGreaterThan(1);
    for (const b of out) {
      expect(b.turns.length).toBeLessThanOrEqual(MAX_OFFLOAD_TURNS);
      expect(b.turns.reduce((n, t) => n + t.content.length, 0)).toBeLessThanOrEqual(MAX_OFFLOAD_TOTAL_CHARS);
    }
    expect(out.flatMap((b) => b.turns)).toHaveLength(200);
    expect(out.map((b) => b.end)).toEqual([...out.map((b) => b.end)].sort((x, y) => x - y));
    expect(out.at(-1)!.end).toBe(2000);
  });
});

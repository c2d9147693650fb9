/** The boundary rule (core/boundary.ts): what an ID and a text field may hold, and the whole-value scan. */
import { describe, expect, it } from "vitest";
import { findUnsafeValue, idString, isSafeId, isSafeText, textString } from "../../core/boundary";
import { MAX_JSON_DEPTH } from "../../core/limits";

describe("the boundary rule", () => {
  it("IDs refuse every C0/C1 control and lone surrogates; text keeps tab, line feed and carriage return", () => {
    for (const ok of ["repo-1", "naïve id", "𝒳😀", "a.b:c_d", "'; drop table x; --"]) {
      expect(isSafeId(ok), JSON.stringify(ok)).toBe(true);
      expect(isSafeText(ok), JSON.stringify(ok)).toBe(true);
    }
    for (const bad of ["\u0000", "a\u0000b", "\u0001", "\u001f", "\u007f", "\u0085", "\u009f", "\uD800", "x\uDFFF", "\uDBFFa", "\u001B[31m"]) {
      expect(isSafeId(bad), JSON.stringify(bad)).toBe(false);
      expect(isSafeText(bad), JSON.stringify(bad)).toBe(false);
    }
    for (const ws of ["a\tb", "a\nb", "a\r\nb"]) {
      expect(isSafeId(ws)).toBe(false);
      expect(isSafeText(ws)).toBe(true);
    }
  });

  it("the zod builders apply the rule and the bound, and their message never quotes the value", () => {
    const id = idString(8);
    expect(id.safeParse("abc").success).toBe(true);
    expect(id.safeParse("").success).toBe(false);
    expect(id.safeParse("123456789").success).toBe(false);
    const r = id.safeParse("secret\u0000");
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).not.toContain("secret");
    expect(textString(16).safeParse("two\nlines").success).toBe(true);
    expect(textString(16).safeParse("nul\u0000").success).toBe(false);
  });

  it("the whole-value scan finds keys and values at their path, refuses deep nesting, and never overflows", () => {
    expect(findUnsafeValue({ turns: [{ role: "user", content: "fine\n" }] })).toBeNull();
    expect(findUnsafeValue({ turns: [{ role: "user", content: "bad\u0000" }] })).toEqual({ path: "turns.0.content", code: "invalid_string" });
    expect(findUnsafeValue({ "we ird\u0000": 1 })).toEqual({ path: "(key)", code: "invalid_string" });
    expect(findUnsafeValue("\uD800")).toEqual({ path: "(body)", code: "invalid_string" });
    let v: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i++) v = [v];
    expect(findUnsafeValue(v)).toBeNull();
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnsafeValue(deep)?.code).toBe("too_deep");
  });
});

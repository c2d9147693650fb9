/**
 * The one rule for the places a thread may be named (core/execution/session-sources.ts): only the
 * runtime keys of `params._meta` count (never the arguments), values are validated, and sources
 * that disagree are refused whatever their order — there is no precedence to exploit.
 */
import { describe, expect, it } from "vitest";
import { metaSession, oneSession } from "../../core/execution/session-sources";

const call = (meta: Record<string, unknown> | undefined, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "get_identity", arguments: args, ...(meta ? { _meta: meta } : {}) },
});
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe("thread sources", () => {
  it("reads Codex's and VS Code's _meta keys, nothing else", () => {
    expect(metaSession([call({ threadId: "019a-t" })])).toBe("019a-t");
    expect(metaSession([call({ "vscode.conversationId": "c-1" })])).toBe("c-1");
    expect(metaSession([call({ threadId: "t", "vscode.conversationId": "t" })])).toBe("t");
    // The model's arguments, other _meta keys and a body without _meta name nothing.
    expect(metaSession([call(undefined, { threadId: "t" }), call({ sessionId: "t", "io.modelcontextprotocol/protocolVersion": "2026-07-28" })])).toBeNull();
    expect(metaSession([{ jsonrpc: "2.0", id: 1, result: { _meta: { threadId: "t" } } }, "x", null])).toBeNull();
  });

  it("refuses a malformed value and any two values that differ, in either order and across a batch", () => {
    for (const bad of ["has space", "", 7, null, { id: "t" }, "x".repeat(129)]) expect(codeOf(() => metaSession([call({ threadId: bad })]))).toBe("invalid_session_header");
    expect(codeOf(() => metaSession([call({ threadId: "a", "vscode.conversationId": "b" })]))).toBe("session_source_conflict");
    expect(codeOf(() => metaSession([call({ "vscode.conversationId": "b", threadId: "a" })]))).toBe("session_source_conflict");
    expect(codeOf(() => metaSession([call({ threadId: "a" }), call({ threadId: "b" })]))).toBe("session_source_conflict");
    expect(codeOf(() => oneSession(["a", null, "b"]))).toBe("session_source_conflict");
    expect(codeOf(() => oneSession(["b", undefined, "a"]))).toBe("session_source_conflict");
    expect(oneSession([null, "a", undefined, "a"])).toBe("a");
    expect(oneSession([null, undefined])).toBeNull();
  });

  it("a refusal never carries the IDs", () => {
    try {
      oneSession(["secret-thread-1", "secret-thread-2"]);
    } catch (err) {
      expect(JSON.stringify({ m: (err as Error).message, d: (err as { details?: unknown }).details })).not.toMatch(/secret-thread/);
    }
  });
});

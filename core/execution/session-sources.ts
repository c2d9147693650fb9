/**
 * The one rule for the places a request (or a stdio process) may name its primary session.
 *
 * A runtime names the chat thread outside the model's tool arguments, in one or more places:
 * our execution headers (`X-CodeSynapse-Session` + `X-CodeSynapse-Parent-Session`), a key a
 * runtime puts on every MCP request's `_meta` (`threadId` from Codex, `vscode.conversationId`
 * from VS Code Copilot), or, for the stdio launcher, its environment (`CODESYNAPSE_SESSION_ID`,
 * `CLAUDE_CODE_SESSION_ID` from Claude Code, `CODEX_THREAD_ID` from Codex). Each is a source
 * of the same thing; none outranks another:
 *
 *   - a value that is present must be a valid execution ID, else `invalid_session_header`;
 *   - every source that names a session must name the same one, else `session_source_conflict`
 *     (never resolved by precedence: a request that says two things is refused);
 *   - the parent is the primary (a source that carries a parent must carry the same ID).
 *
 * What is named still has to be registered and owned by the caller (core/authorize.ts): a source
 * only names, it never registers. Refusals are fixed text: they never quote an ID.
 */
import { AppError } from "../errors";
import { identityRefusal } from "../errors-identity";
import { isValidId } from "./identity";

/** The `_meta` keys runtimes put on MCP requests to name their thread (Codex, VS Code Copilot). */
export const RUNTIME_META_KEYS = ["threadId", "vscode.conversationId"] as const;

/** Environment variables a runtime sets for the stdio servers it spawns (Claude Code, Codex). */
export const RUNTIME_ENV_KEYS = ["CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID"] as const;

export function conflictingSources(): AppError {
  return new AppError("session_source_conflict");
}

/** The one session the sources name (null: none names one). Every named value is already valid. */
export function oneSession(named: readonly (string | null | undefined)[]): string | null {
  let found: string | null = null;
  for (const id of named) {
    if (id === null || id === undefined) continue;
    if (found !== null && found !== id) throw conflictingSources();
    found = id;
  }
  return found;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The thread named by the known `_meta` keys of a body's JSON-RPC messages (a batch: all of them),
 * or null. Only `params._meta` counts, never `params.arguments` (what the model writes).
 */
export function metaSession(messages: readonly unknown[]): string | null {
  const named: string[] = [];
  for (const m of messages) {
    if (!isRecord(m) || !isRecord(m.params) || !isRecord(m.params._meta)) continue;
    const meta = m.params._meta;
    for (const key of RUNTIME_META_KEYS) {
      if (!Object.hasOwn(meta, key)) continue;
      const v = meta[key];
      if (!isValidId(v)) throw identityRefusal(key === "threadId" ? "meta_thread_id_malformed" : "meta_conversation_id_malformed");
      named.push(v);
    }
  }
  return oneSession(named);
}

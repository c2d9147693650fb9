/**
 * What a coding assistant's hook hands `codesynapse hook` on stdin, read into one shape.
 *
 * Each runtime's documented hook input (fixtures in test/fixtures/hooks/):
 *   - Claude Code: `{session_id, transcript_path, cwd, hook_event_name, source?, reason?, …}` —
 *     SessionStart (`source`: startup | resume | clear | compact), SessionEnd, PreCompact, Stop, …;
 *   - Codex (`.codex/hooks.json`): the same snake_case fields (`session_id` is the thread ID,
 *     `transcript_path` may be null);
 *   - Cursor (`.cursor/hooks.json`): `{conversation_id, generation_id, hook_event_name, workspace_roots, …}`;
 *   - VS Code Copilot agent hooks (`.github/hooks/*.json`): `{sessionId, hookEventName, timestamp, cwd, transcript_path?}`.
 * The runtime is named (`--runtime`) or detected from the fields. Unknown fields are ignored: a
 * hook's input grows with the runtime's versions. The thread ID is validated like any other
 * execution ID; the caller never sees it echoed.
 */
import { z } from "zod";
import { isValidId } from "../../core/execution/identity";

export const RUNTIMES = ["claude-code", "codex", "cursor", "vscode"] as const;
export type Runtime = (typeof RUNTIMES)[number];

/** The events the hook acts on, by meaning; any other event only registers the thread. */
export type HookEvent = "session_start" | "session_end" | "pre_compact" | "stop" | "prompt" | "other";

export interface HookInput {
  readonly runtime: Runtime;
  /** The event as the runtime names it (`SessionStart`, `beforeSubmitPrompt`, …). */
  readonly eventName: string;
  readonly event: HookEvent;
  readonly sessionId: string;
  /** SessionStart's `source` (Claude Code, Codex): startup, resume, clear or compact. */
  readonly source?: string;
  /** The runtime's JSONL transcript of this thread, when it gives one. */
  readonly transcriptPath?: string;
}

/** A hook input that cannot be used: fixed text, never the input itself. */
export class HookInputError extends Error {
  override readonly name = "HookInputError";
}

const text = z.string().max(4096);
const snake = z.looseObject({
  session_id: z.unknown(),
  hook_event_name: text.optional(),
  source: text.optional(),
  transcript_path: text.nullish(),
});
const cursor = z.looseObject({ conversation_id: z.unknown(), hook_event_name: text.optional(), transcript_path: text.nullish() });
const vscode = z.looseObject({ sessionId: z.unknown(), hookEventName: text.optional(), source: text.optional(), transcript_path: text.nullish() });

/** Which runtime sent this input, by its fields (used when `--runtime` is not given). */
export function detectRuntime(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): Runtime {
  if ("conversation_id" in raw) return "cursor";
  if ("sessionId" in raw || "hookEventName" in raw) return "vscode";
  if (env.CODEX_THREAD_ID !== undefined && env.CLAUDECODE === undefined) return "codex";
  return "claude-code";
}

const EVENTS: Record<string, HookEvent> = {
  sessionstart: "session_start",
  sessionend: "session_end",
  precompact: "pre_compact",
  stop: "stop",
  userpromptsubmit: "prompt",
  beforesubmitprompt: "prompt",
};

/** `SessionStart`, `session-start`, `sessionStart` and `session_start` are one event. */
export function eventOf(name: string): HookEvent {
  return EVENTS[name.replace(/[-_\s]/g, "").toLowerCase()] ?? "other";
}

/** Reads a runtime's hook input (already parsed JSON) for the event the command line named, or the input names. */
export function readHookInput(json: unknown, opts: { event?: string; runtime?: Runtime; env: NodeJS.ProcessEnv }): HookInput {
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new HookInputError("the hook input on stdin is not a JSON object");
  const raw = json as Record<string, unknown>;
  const runtime = opts.runtime ?? detectRuntime(raw, opts.env);
  let id: unknown;
  let named: string | undefined;
  let source: string | undefined;
  let transcript: string | null | undefined;
  const fail = () => new HookInputError(`the ${runtime} hook input does not have the fields that runtime documents`);
  if (runtime === "cursor") {
    const p = cursor.safeParse(raw);
    if (!p.success) throw fail();
    [id, named, transcript] = [p.data.conversation_id, p.data.hook_event_name, p.data.transcript_path];
  } else if (runtime === "vscode") {
    const p = vscode.safeParse(raw);
    if (!p.success) throw fail();
    [id, named, source, transcript] = [p.data.sessionId, p.data.hookEventName, p.data.source, p.data.transcript_path];
  } else {
    const p = snake.safeParse(raw);
    if (!p.success) throw fail();
    [id, named, source, transcript] = [p.data.session_id, p.data.hook_event_name, p.data.source, p.data.transcript_path];
  }
  if (id === undefined) throw new HookInputError(`the ${runtime} hook input names no thread (${runtime === "cursor" ? "conversation_id" : runtime === "vscode" ? "sessionId" : "session_id"})`);
  if (!isValidId(id)) throw new HookInputError("the thread ID in the hook input is malformed (1-128 of A-Z a-z 0-9 . _ : -)");
  const eventName = opts.event ?? named;
  if (eventName === undefined) throw new HookInputError("no event: name it (`codesynapse hook SessionStart`) or send hook_event_name");
  return Object.freeze({
    runtime,
    eventName,
    event: eventOf(eventName),
    sessionId: id,
    ...(source !== undefined ? { source } : {}),
    ...(typeof transcript === "string" && transcript.length > 0 ? { transcriptPath: transcript } : {}),
  });
}

/**
 * What the runtime expects on stdout from this hook when it does not block: Claude Code and Codex
 * read nothing (Claude Code would add a SessionStart hook's text to the model's context), Cursor
 * reads a JSON object (`{"continue": true}` lets a prompt through), VS Code a JSON object.
 */
export function hookOutput(input: Pick<HookInput, "runtime" | "event">): string {
  if (input.runtime === "cursor") return input.event === "prompt" ? '{"continue":true}\n' : "{}\n";
  if (input.runtime === "vscode") return "{}\n";
  return "";
}

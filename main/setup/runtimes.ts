/**
 * What `codesynapse setup <runtime>` writes: each runtime's own configuration files, with the
 * CodeSynapse MCP server entry and the hooks that register its threads (main/hook/run.ts).
 *
 * The API key is never written: the files name the environment variable the user exports
 * (`${CODESYNAPSE_API_KEY}` in Claude Code's `.mcp.json`, `${env:CODESYNAPSE_API_KEY}` in VS Code's
 * `mcp.json`, `bearer_token_env_var` in Codex's config.toml; hooks inherit the runtime's
 * environment). Every edit is a merge: only the `codesynapse` server entry and the hook handlers
 * running `codesynapse … hook` are ours, replaced on each run; every other entry is kept.
 *
 *   claude-code  <dir>/.mcp.json (stdio: Claude Code hands its stdio servers CLAUDE_CODE_SESSION_ID;
 *                it sends nothing to HTTP servers), <dir>/.claude/settings.json hooks SessionStart,
 *                Stop, PreCompact, SessionEnd
 *   codex        $CODEX_HOME/config.toml (HTTP: Codex names its thread in every tools/call's
 *                `_meta.threadId`; `[features] codex_hooks = true`), $CODEX_HOME/hooks.json SessionStart, Stop
 *   vscode       <dir>/.vscode/mcp.json (HTTP: VS Code names its conversation in `_meta`),
 *                <dir>/.github/hooks/codesynapse.json SessionStart, UserPromptSubmit
 *   cursor       <dir>/.cursor/hooks.json beforeSubmitPrompt, stop — hooks only: Cursor names its
 *                conversation in hooks but not on MCP requests, so no MCP entry could tell its
 *                conversations apart (docs/mcp-client-guide.md)
 */
import path from "node:path";
import type { Runtime } from "../hook/payload";
import { setKey, setTable } from "./toml-table";

export interface SetupOptions {
  /** The server (CODESYNAPSE_URL). */
  url: string;
  /** The repository the hooks hand the thread's turns over for (--repo), if any. */
  repo?: string;
  /** The project directory the project-level files go into. */
  dir: string;
  /** Codex's home ($CODEX_HOME, else ~/.codex). */
  codexHome: string;
  /** This checkout's launcher and the Node that runs it. */
  bin: string;
  node: string;
}

export interface ConfigFile {
  path: string;
  format: "json" | "toml";
  /** The file's new text from its current one (undefined: it does not exist yet). */
  apply(existing: string | undefined): string;
}

export class SetupError extends Error {
  override readonly name = "SetupError";
}

/** A POSIX shell word. */
function q(word: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A hook handler command is ours when it runs `codesynapse … hook`. */
export function isOurCommand(command: unknown): boolean {
  return typeof command === "string" && /codesynapse(\.js)?'? hook /.test(command);
}

function hookCommand(o: SetupOptions, runtime: Runtime, event: string): string {
  return [q(o.node), q(o.bin), "hook", event, "--runtime", runtime, "--url", q(o.url), ...(o.repo ? ["--repo", q(o.repo)] : [])].join(" ");
}

type Json = Record<string, unknown>;

function parseObject(text: string | undefined, file: string): Json {
  if (text === undefined || text.trim() === "") return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new SetupError(`${file} is not JSON; fix or move it, then run setup again (nothing was written)`);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new SetupError(`${file} is not a JSON object; nothing was written`);
  return v as Json;
}

function objectAt(o: Json, key: string, file: string): Json {
  const v = o[key] ?? {};
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new SetupError(`${file}: "${key}" is not an object; nothing was written`);
  return v as Json;
}

function listAt(o: Json, key: string): unknown[] {
  const v = o[key];
  return Array.isArray(v) ? v : [];
}

const json = (o: Json) => `${JSON.stringify(o, null, 2)}\n`;

function jsonFile(file: string, edit: (o: Json) => Json): ConfigFile {
  return { path: file, format: "json", apply: (existing) => json(edit(parseObject(existing, file))) };
}

/** One named MCP server entry under `key`, the others kept. */
function withServer(key: string, entry: Json, file: string) {
  return (o: Json): Json => ({ ...o, [key]: { ...objectAt(o, key, file), codesynapse: entry } });
}

/**
 * Hooks in the matcher-group shape Claude Code, Codex and VS Code read —
 * `{"hooks": {"Event": [{"hooks": [{"type": "command", "command"}]}]}}` (VS Code: the handlers
 * themselves in the list) — our handlers replaced, every other handler and group kept.
 */
function withHooks(events: readonly string[], handler: (event: string) => Json, file: string, grouped: boolean) {
  return (o: Json): Json => {
    const hooks = { ...objectAt(o, "hooks", file) };
    for (const event of events) {
      const kept = listAt(hooks, event).flatMap((entry): unknown[] => {
        if (!grouped) return isOurCommand((entry as Json | null)?.command) ? [] : [entry];
        if (typeof entry !== "object" || entry === null || !Array.isArray((entry as Json).hooks)) return [entry];
        const inner = ((entry as Json).hooks as unknown[]).filter((h) => !isOurCommand((h as Json | null)?.command));
        return inner.length === 0 ? [] : [{ ...(entry as Json), hooks: inner }];
      });
      hooks[event] = [...kept, grouped ? { hooks: [handler(event)] } : handler(event)];
    }
    return { ...o, hooks };
  };
}

export function planFor(runtime: Runtime, o: SetupOptions): ConfigFile[] {
  const mcpUrl = `${o.url}/mcp`;
  switch (runtime) {
    case "claude-code": {
      const mcp = path.join(o.dir, ".mcp.json");
      const settings = path.join(o.dir, ".claude", "settings.json");
      const entry = { type: "stdio", command: o.node, args: [o.bin, "mcp"], env: { CODESYNAPSE_URL: o.url, CODESYNAPSE_API_KEY: "${CODESYNAPSE_API_KEY}" } };
      const events = ["SessionStart", "Stop", "PreCompact", "SessionEnd"];
      return [
        jsonFile(mcp, withServer("mcpServers", entry, mcp)),
        jsonFile(settings, withHooks(events, (e) => ({ type: "command", command: hookCommand(o, runtime, e), timeout: 10 }), settings, true)),
      ];
    }
    case "codex": {
      const config = path.join(o.codexHome, "config.toml");
      const hooks = path.join(o.codexHome, "hooks.json");
      return [
        {
          path: config,
          format: "toml",
          apply: (existing) => setKey(setTable(existing ?? "", "mcp_servers.codesynapse", { url: mcpUrl, bearer_token_env_var: "CODESYNAPSE_API_KEY" }), "features", "codex_hooks", true),
        },
        jsonFile(hooks, withHooks(["SessionStart", "Stop"], (e) => ({ type: "command", command: hookCommand(o, runtime, e) }), hooks, true)),
      ];
    }
    case "vscode": {
      const mcp = path.join(o.dir, ".vscode", "mcp.json");
      const hooks = path.join(o.dir, ".github", "hooks", "codesynapse.json");
      const entry = { type: "http", url: mcpUrl, headers: { Authorization: "Bearer ${env:CODESYNAPSE_API_KEY}" } };
      return [
        jsonFile(mcp, withServer("servers", entry, mcp)),
        jsonFile(hooks, withHooks(["SessionStart", "UserPromptSubmit"], (e) => ({ type: "command", command: hookCommand(o, runtime, e), timeout: 10 }), hooks, false)),
      ];
    }
    case "cursor": {
      const hooks = path.join(o.dir, ".cursor", "hooks.json");
      return [
        jsonFile(hooks, (x) => ({ version: 1, ...withHooks(["beforeSubmitPrompt", "stop"], (e) => ({ command: hookCommand(o, runtime, e) }), hooks, false)(x) })),
      ];
    }
  }
}

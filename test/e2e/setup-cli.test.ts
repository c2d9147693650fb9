/**
 * `codesynapse setup <runtime>`: `--print` output parsed as each runtime reads it and checked
 * against the shape its documentation gives (JSON with zod; Codex's TOML with a small structural
 * parser, no TOML library being installed); a written setup merged into the user's own files
 * (their entries kept, ours replaced, a second run byte-identical); the API key never in a file; a
 * file that cannot be merged leaves every file untouched; and the hook command it writes, run as
 * Claude Code runs it (a shell, the hook input on stdin), registers the thread.
 */
import { execFile } from "node:child_process";
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../../api/app";
import { runSetup } from "../../main/setup/run";
import { testContextWithMemory } from "../support/app";
import { openTestDatabase, type TestDatabase } from "../support/databases";
import { seedAccount, type Account } from "../support/fixtures";
import { call, executionHeaders, listen, type TestServer } from "../support/http";
import { BIN, cleanEnv, runCli } from "../support/process";

const KEY = `csk_0123abcd_${"k".repeat(43)}`;
const URL_ = "http://127.0.0.1:8080";

/** The `# file: PATH` sections of --print. */
function sections(out: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const part of out.split(/^# file: /m).filter(Boolean)) {
    const nl = part.indexOf("\n");
    files.set(part.slice(0, nl), part.slice(nl + 1));
  }
  return files;
}

/** Codex's config.toml as tables of keys, for the TOML we write: headers, `key = value` with string, boolean or string-array values. */
function parseToml(text: string): Record<string, Record<string, unknown>> {
  const tables: Record<string, Record<string, unknown>> = { "": {} };
  let current = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const header = /^\[([A-Za-z0-9_.-]+)\]$/.exec(line);
    if (header) {
      current = header[1]!;
      if (tables[current]) throw new Error(`table [${current}] defined twice`);
      tables[current] = {};
      continue;
    }
    const kv = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
    if (!kv) throw new Error(`not TOML we know: ${line}`);
    if (Object.hasOwn(tables[current]!, kv[1]!)) throw new Error(`key ${kv[1]} defined twice`);
    tables[current]![kv[1]!] = JSON.parse(kv[2]!);
  }
  return tables;
}

const command = z.strictObject({ type: z.literal("command"), command: z.string().min(1), timeout: z.number().int().positive().optional() });
/** Claude Code's and Codex's hooks: event → matcher groups → handlers. */
const groupedHooks = z.looseObject({ hooks: z.record(z.string(), z.array(z.looseObject({ matcher: z.string().optional(), hooks: z.array(command).min(1) }))) });
const envRef = (name: string) => z.literal(`\${${name}}`);

const SHAPES = {
  "claude-code": {
    ".mcp.json": z.strictObject({
      mcpServers: z.record(z.string(), z.strictObject({ type: z.literal("stdio"), command: z.string(), args: z.array(z.string()), env: z.record(z.string(), z.string()) })),
    }),
    ".claude/settings.json": groupedHooks,
  },
  vscode: {
    ".vscode/mcp.json": z.strictObject({
      servers: z.record(z.string(), z.strictObject({ type: z.literal("http"), url: z.url(), headers: z.record(z.string(), z.string()) })),
    }),
    ".github/hooks/codesynapse.json": z.strictObject({ hooks: z.record(z.string(), z.array(command)) }),
  },
  cursor: {
    ".cursor/hooks.json": z.strictObject({ version: z.literal(1), hooks: z.record(z.string(), z.array(z.strictObject({ command: z.string().min(1) }))) }),
  },
} as const;

async function setup(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runSetup(argv, { CODESYNAPSE_API_KEY: KEY, ...env }, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } }, BIN);
  return { code, stdout, stderr };
}

describe("codesynapse setup: a coding assistant's own configuration", () => {
  let dir: string;
  let codexHome: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "cs-setup-"));
    codexHome = path.join(dir, "codex-home");
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const runtime of ["claude-code", "vscode", "cursor"] as const) {
    it(`${runtime} --print: every file parses and has the runtime's documented shape; the key is referenced, never written`, async () => {
      const r = await setup([runtime, "--print", "--dir", dir, "--url", URL_]);
      expect([r.code, r.stderr]).toEqual([0, ""]);
      expect(r.stdout).not.toContain(KEY);
      const files = sections(r.stdout);
      const shapes = SHAPES[runtime] as Record<string, z.ZodType>;
      expect([...files.keys()].sort()).toEqual(Object.keys(shapes).map((f) => path.join(dir, f)).sort());
      for (const [rel, shape] of Object.entries(shapes)) {
        const parsed = shape.parse(JSON.parse(files.get(path.join(dir, rel))!));
        const text = JSON.stringify(parsed);
        expect(text).not.toContain("csk_");
        if (rel.includes("mcp.json")) {
          if (runtime === "claude-code") {
            const entry = (parsed as any).mcpServers.codesynapse;
            expect(entry.args.at(-1)).toBe("mcp");
            expect(entry.env).toEqual({ CODESYNAPSE_URL: URL_, CODESYNAPSE_API_KEY: envRef("CODESYNAPSE_API_KEY").value });
          } else {
            expect((parsed as any).servers.codesynapse).toEqual({ type: "http", url: `${URL_}/mcp`, headers: { Authorization: "Bearer ${env:CODESYNAPSE_API_KEY}" } });
          }
        }
      }
      const hookEvents = (f: string) => Object.keys((JSON.parse(files.get(path.join(dir, f))!) as { hooks: object }).hooks).sort();
      if (runtime === "claude-code") expect(hookEvents(".claude/settings.json")).toEqual(["PreCompact", "SessionEnd", "SessionStart", "Stop"]);
      if (runtime === "vscode") expect(hookEvents(".github/hooks/codesynapse.json")).toEqual(["SessionStart", "UserPromptSubmit"]);
      if (runtime === "cursor") expect(hookEvents(".cursor/hooks.json")).toEqual(["beforeSubmitPrompt", "stop"]);
    });
  }

  it("codex --print: config.toml has the HTTP server entry (key by env var) and the hooks feature; hooks.json Codex's shape", async () => {
    const r = await setup(["codex", "--print", "--url", URL_], { CODEX_HOME: codexHome });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(KEY);
    const files = sections(r.stdout);
    const toml = parseToml(files.get(path.join(codexHome, "config.toml"))!);
    expect(toml["mcp_servers.codesynapse"]).toEqual({ url: `${URL_}/mcp`, bearer_token_env_var: "CODESYNAPSE_API_KEY" });
    expect(toml.features).toEqual({ codex_hooks: true });
    const hooks = groupedHooks.parse(JSON.parse(files.get(path.join(codexHome, "hooks.json"))!));
    expect(Object.keys(hooks.hooks).sort()).toEqual(["SessionStart", "Stop"]);
    expect(hooks.hooks.Stop![0]!.hooks[0]!.command).toMatch(/ hook Stop --runtime codex --url http:\/\/127\.0\.0\.1:8080$/);
  });

  it("writing merges into the user's files: their entries kept, ours replaced, a second run byte-identical", async () => {
    const project = path.join(dir, "merge");
    await mkdir(path.join(project, ".claude"), { recursive: true });
    await writeFile(path.join(project, ".mcp.json"), JSON.stringify({ mcpServers: { github: { command: "gh-mcp" }, codesynapse: { command: "old" } } }));
    const userHook = { type: "command", command: "echo started" };
    await writeFile(
      path.join(project, ".claude", "settings.json"),
      JSON.stringify({ permissions: { allow: ["Bash(npm test)"] }, hooks: { SessionStart: [{ matcher: "startup", hooks: [userHook] }], PreToolUse: [{ matcher: "Bash", hooks: [userHook] }] } }),
    );
    await mkdir(codexHome, { recursive: true });
    const userToml = '# my settings\nmodel = "gpt-5-codex"\n\n[mcp_servers.other]\ncommand = "other-mcp"\n\n[features]\nweb_search_request = true\n';
    await writeFile(path.join(codexHome, "config.toml"), userToml);

    expect((await setup(["claude-code", "--dir", project, "--url", URL_, "--repo", "webapp"])).code).toBe(0);
    expect((await setup(["codex", "--url", URL_], { CODEX_HOME: codexHome })).code).toBe(0);
    const read = async () =>
      Promise.all([path.join(project, ".mcp.json"), path.join(project, ".claude", "settings.json"), path.join(codexHome, "config.toml"), path.join(codexHome, "hooks.json")].map((f) => readFile(f, "utf8")));
    const first = await read();
    expect((await setup(["claude-code", "--dir", project, "--url", URL_, "--repo", "webapp"])).code).toBe(0);
    expect((await setup(["codex", "--url", URL_], { CODEX_HOME: codexHome })).code).toBe(0);
    expect(await read()).toEqual(first);

    const [mcp, settings, toml] = first;
    const servers = JSON.parse(mcp!).mcpServers;
    expect(servers.github).toEqual({ command: "gh-mcp" });
    expect(servers.codesynapse.args).toEqual([BIN, "mcp"]);
    const s = groupedHooks.parse(JSON.parse(settings!));
    expect((s as any).permissions).toEqual({ allow: ["Bash(npm test)"] });
    expect(s.hooks.PreToolUse).toEqual([{ matcher: "Bash", hooks: [userHook] }]);
    expect(s.hooks.SessionStart![0]).toEqual({ matcher: "startup", hooks: [userHook] });
    for (const event of ["SessionStart", "Stop", "PreCompact", "SessionEnd"]) {
      const ours = s.hooks[event]!.flatMap((g) => g.hooks).filter((h) => h.command.includes(" hook "));
      expect(ours, event).toHaveLength(1);
      expect(ours[0]!.command).toContain(`hook ${event} --runtime claude-code --url ${URL_} --repo webapp`);
    }
    expect(toml!.startsWith(userToml.split("[features]")[0]!)).toBe(true);
    const t = parseToml(toml!);
    expect(t[""]).toEqual({ model: "gpt-5-codex" });
    expect(t["mcp_servers.other"]).toEqual({ command: "other-mcp" });
    expect(t.features).toEqual({ codex_hooks: true, web_search_request: true });
    expect(t["mcp_servers.codesynapse"]).toEqual({ url: `${URL_}/mcp`, bearer_token_env_var: "CODESYNAPSE_API_KEY" });
    for (const text of first) expect(text).not.toContain(KEY);
  });

  it("a file it cannot merge leaves every file as it was (exit 1, one line naming the file)", async () => {
    const project = path.join(dir, "broken");
    await mkdir(path.join(project, ".claude"), { recursive: true });
    await writeFile(path.join(project, ".claude", "settings.json"), "{ not json");
    const r = await setup(["claude-code", "--dir", project]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/settings\.json is not JSON/);
    expect(await readFile(path.join(project, ".claude", "settings.json"), "utf8")).toBe("{ not json");
    await expect(readFile(path.join(project, ".mcp.json"), "utf8")).rejects.toThrow(/ENOENT/);
    expect((await setup(["windsurf"])).code).toBe(2);
  });
});

describe("codesynapse setup: the hook it writes works as the runtime runs it", () => {
  let database: TestDatabase;
  let srv: TestServer;
  let a: Account;
  let dir: string;
  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    srv = await listen(createApp(testContextWithMemory(database.db)));
    a = await seedAccount(database.db);
    dir = await mkdtemp(path.join(tmpdir(), "cs-setup-run-"));
  });
  afterAll(async () => {
    await srv?.close();
    await database?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the CLI writes Claude Code's files; its SessionStart command, run by a shell with the hook input, registers the thread", async () => {
    const r = await runCli(["setup", "claude-code", "--dir", dir, "--url", srv.url], cleanEnv({ CODESYNAPSE_API_KEY: a.apiKey }));
    expect(r.code, r.stderr).toBe(0);
    const settings = groupedHooks.parse(JSON.parse(await readFile(path.join(dir, ".claude", "settings.json"), "utf8")));
    const cmd = settings.hooks.SessionStart![0]!.hooks[0]!.command;
    const session = crypto.randomUUID();
    const input = JSON.stringify({ session_id: session, transcript_path: "/tmp/x.jsonl", cwd: dir, hook_event_name: "SessionStart", source: "startup" });
    const run = promisify(execFile);
    const child = run("/bin/sh", ["-c", cmd], { env: cleanEnv({ CODESYNAPSE_API_KEY: a.apiKey }) });
    child.child.stdin!.end(input);
    const out = await child;
    expect([out.stdout, out.stderr]).toEqual(["", ""]);
    const me = await call(srv.url, "GET", "/api/v1/execution/identity", { headers: executionHeaders(a.apiKey, session) });
    expect(me.status).toBe(200);
    expect(me.body.session_id).toBe(session);
    for (const f of [".mcp.json", ".claude/settings.json"]) expect(await readFile(path.join(dir, f), "utf8")).not.toContain(a.apiKey);
  });
});

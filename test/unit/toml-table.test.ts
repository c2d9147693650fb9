/** Codex's config.toml edits (main/setup/toml-table.ts): ours replaced, the user's text kept byte for byte. */
import { describe, expect, it } from "vitest";
import { setKey, setTable } from "../../main/setup/toml-table";

describe("config.toml edits", () => {
  const user = '# mine\nmodel = "o3"\n\n[mcp_servers.codesynapse]\nurl = "http://old/mcp"\nstartup_timeout_sec = 5\n\n# next\n[mcp_servers.other]\ncommand = "x"\n';
  it("replaces exactly our table and keeps the rest", () => {
    const out = setTable(user, "mcp_servers.codesynapse", { url: "http://new/mcp", bearer_token_env_var: "CODESYNAPSE_API_KEY" });
    expect(out).toBe('# mine\nmodel = "o3"\n\n[mcp_servers.codesynapse]\nurl = "http://new/mcp"\nbearer_token_env_var = "CODESYNAPSE_API_KEY"\n\n# next\n[mcp_servers.other]\ncommand = "x"\n');
    expect(setTable(out, "mcp_servers.codesynapse", { url: "http://new/mcp", bearer_token_env_var: "CODESYNAPSE_API_KEY" })).toBe(out);
    expect(setTable("", "t", { a: true, b: ["x", "y"] })).toBe('[t]\na = true\nb = ["x", "y"]\n');
  });
  it("sets one key in a table, adding the table when absent", () => {
    expect(setKey("[features]\nweb_search_request = true\n", "features", "codex_hooks", true)).toBe("[features]\ncodex_hooks = true\nweb_search_request = true\n");
    expect(setKey("[features]\ncodex_hooks = false\n", "features", "codex_hooks", true)).toBe("[features]\ncodex_hooks = true\n");
    expect(setKey('model = "o3"\n', "features", "codex_hooks", true)).toBe('model = "o3"\n\n[features]\ncodex_hooks = true\n');
  });
});

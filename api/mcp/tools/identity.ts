/** `get_identity`: the execution identity this MCP connection runs as (the MCP twin of HTTP-1a). */
import type { DefineTool } from "../server";

export function registerIdentityTools(define: DefineTool): void {
  define(
    "get_identity",
    {
      title: "Who am I",
      description:
        "Returns the execution identity every tool call on this connection runs as: tenant (organisation), subject (user), " +
        "the registered primary session ID of this chat thread, its parent (always equal) and the binding's fixed expiry. " +
        "Call it first to check the wiring; it takes no arguments.",
      inputSchema: {},
      readOnly: true,
    },
    async (_args, run) => ({ ...run.identity, expires_at: run.caller.expiresAt.toISOString() }),
  );
}

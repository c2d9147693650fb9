/** The execution identity a caller runs as (HTTP-1a and its MCP twin). */
import { z } from "zod";
import { defineOperation } from "./operation";

export const getIdentity = defineOperation({
  name: "execution.identity",
  title: "Who am I",
  description:
    "Returns the execution identity every tool call on this connection runs as: tenant (organisation), subject (user), " +
    "the registered primary session ID of this chat thread, its parent (always equal) and the binding's fixed expiry. " +
    "Call it first to check the wiring; it takes no arguments.",
  input: {},
  output: z.object({ tenant_id: z.string(), subject_id: z.string(), session_id: z.string(), parent_session_id: z.string(), expires_at: z.string() }),
  http: [{ method: "get", path: "/api/v1/execution/identity" }],
  mcp: { tool: "get_identity", readOnly: true },
  run: async (call) => ({ ...call.auth.identity, expires_at: call.auth.expiresAt.toISOString() }),
});

/**
 * The MCP mounter: every catalog operation with an MCP binding
 * (ops/catalog.ts) becomes one tool, its arguments the operation's whole
 * input, run by the same `runOperation` as its REST routes.
 */
import { CATALOG } from "../../../ops/catalog";
import type { Operation } from "../../../ops/operation";
import { principalOf } from "../../execution";
import { runOperation } from "../../operations";
import type { DefineTool } from "../server";

export function registerOperationTools(define: DefineTool, catalog: readonly Operation[] = CATALOG): void {
  for (const op of catalog) {
    if (!op.mcp) continue;
    define(op.mcp.tool, { title: op.title, description: op.description, inputSchema: op.input, readOnly: op.mcp.readOnly ?? false }, async (args, run) => {
      const who = { identity: run.identity, expiresAt: run.caller.expiresAt, principal: principalOf(run.caller.actor), signal: run.context.signal };
      return ((await runOperation(op, args as Record<string, unknown>, who, run.ctx)) ?? {}) as object;
    });
  }
}

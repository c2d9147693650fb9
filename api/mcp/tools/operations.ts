/**
 * The MCP mounter: every catalog operation with an MCP binding
 * (ops/catalog.ts) becomes one tool, its arguments the operation's whole
 * input (then its cross-field rules), run by the same `runOperation` as its
 * REST routes.
 */
import { CATALOG } from "../../../ops/catalog";
import { inputSchemaOf, WithStatus, type Operation } from "../../../ops/operation";
import { principalOf } from "../../execution";
import { parseWith } from "../../http";
import { runOperation } from "../../operations";
import type { DefineTool } from "../server";

export function registerOperationTools(define: DefineTool, catalog: readonly Operation[] = CATALOG): void {
  for (const op of catalog) {
    if (!op.mcp) continue;
    const schema = op.refine ? inputSchemaOf(op) : undefined;
    define(op.mcp.tool, { title: op.title, description: op.description, inputSchema: op.input, readOnly: op.mcp.readOnly ?? false }, async (args, run) => {
      const input = (schema ? parseWith(schema, args, "(arguments)") : args) as Record<string, unknown>;
      const who = { identity: run.identity, expiresAt: run.caller.expiresAt, principal: principalOf(run.caller.actor), signal: run.context.signal };
      const out = await runOperation(op, input, who, run.ctx);
      return ((out instanceof WithStatus ? out.body : out) ?? {}) as object;
    });
  }
}

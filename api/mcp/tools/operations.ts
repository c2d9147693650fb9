/**
 * The MCP mounter: every catalog operation with an MCP binding
 * (ops/catalog.ts) becomes one tool, its arguments the operation's whole
 * input (then its cross-field rules), run by the same `runOperation` as its
 * REST routes. A request that carries one tool call names its repository
 * (`toolRepoAsk`), so the endpoint resolves identity and repository
 * permission in one statement, as REST does.
 */
import { CATALOG } from "../../../ops/catalog";
import { inputSchemaOf, WithStatus, type Operation } from "../../../ops/operation";
import { principalOf } from "../../execution";
import { parseWith } from "../../http";
import { repoAskOf, runOperation } from "../../operations";
import type { RepoAsk } from "../../execution";
import type { DefineTool } from "../server";

export function registerOperationTools(define: DefineTool, catalog: readonly Operation[] = CATALOG): void {
  for (const op of catalog) {
    if (!op.mcp) continue;
    const schema = op.refine ? inputSchemaOf(op) : undefined;
    define(op.mcp.tool, { title: op.title, description: op.description, inputSchema: op.input, readOnly: op.mcp.readOnly ?? false }, async (args, run) => {
      const input = (schema ? parseWith(schema, args, "(arguments)") : args) as Record<string, unknown>;
      const who = { identity: run.identity, expiresAt: run.caller.expiresAt, principal: principalOf(run.caller.actor), signal: run.context.signal, repo: run.caller.repo };
      const out = await runOperation(op, input, who, run.ctx);
      return ((out instanceof WithStatus ? out.body : out) ?? {}) as object;
    });
  }
}

const BY_TOOL = new Map(CATALOG.flatMap((op) => (op.mcp ? [[op.mcp.tool, op] as const] : [])));

/** The repository a JSON-RPC batch's tools/call names, for the operation it calls (undefined: none, or not one call). */
export function toolRepoAsk(messages: readonly unknown[], catalog: ReadonlyMap<string, Operation> = BY_TOOL): RepoAsk | undefined {
  const calls = messages.filter((m): m is { method: string; params?: { name?: unknown; arguments?: { repo?: unknown } } } => (m as { method?: unknown } | null)?.method === "tools/call");
  if (calls.length !== 1) return undefined;
  const op = typeof calls[0]!.params?.name === "string" ? catalog.get(calls[0]!.params.name) : undefined;
  return op ? repoAskOf(op, calls[0]!.params?.arguments?.repo) : undefined;
}

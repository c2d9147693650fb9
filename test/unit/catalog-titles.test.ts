/**
 * The reference lists every route of the catalog under its title: no two may read the same (one
 * operation with two routes gives each route its own title), and the operations' own titles, which
 * name the MCP tools, are unique too. The security note names the command that makes API keys.
 */
import { expect, it } from "vitest";
import { openApiDocument } from "../../api/openapi";
import { CATALOG } from "../../ops/catalog";
import { ADMIN_USAGE } from "../../api/cli-operations";

const duplicates = (xs: string[]) => xs.filter((x, i) => xs.indexOf(x) !== i);

it("every operation title and every route summary in the OpenAPI document is unique", () => {
  expect(duplicates(CATALOG.map((op) => op.title))).toEqual([]);
  const doc = openApiDocument() as { paths: Record<string, Record<string, { summary?: string }>> };
  const summaries = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.summary ?? ""));
  expect(summaries.length).toBeGreaterThan(CATALOG.length); // some operations have two routes
  expect(summaries.filter((s) => s === "")).toEqual([]);
  expect(duplicates(summaries)).toEqual([]);
});

it("the API key's security note names a command the CLI has", () => {
  const doc = openApiDocument() as { components: { securitySchemes: Record<string, { description?: string }> } };
  const note = doc.components.securitySchemes.apiKey?.description ?? "";
  const named = [...note.matchAll(/codesynapse admin ([a-z-]+)/g)].map((m) => m[1]!);
  expect(named.length).toBeGreaterThan(0);
  for (const c of named) expect(Object.keys(ADMIN_USAGE)).toContain(c);
});

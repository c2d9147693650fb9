/**
 * @codesynapse/client's generated types are the catalog's: the committed
 * src/generated/api.ts equals what `npm run client:generate` writes now, and
 * every mounted operation has a route in it. The type assertions below are
 * checked by tsc (`npm run check`): an input or output that drifts from the
 * catalog stops the build.
 */
import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Input, Output } from "@codesynapse/client";
import { ROUTES } from "../../clients/typescript/src/generated/api";
import { GENERATED_FILE, generatedSource } from "../../clients/typescript/scripts/generate";
import { openApiPath } from "../../api/openapi";
import { CATALOG } from "../../ops/catalog";

describe("@codesynapse/client generated types", () => {
  it("the committed file is what the catalog generates (run `npm run client:generate` when this fails)", async () => {
    expect(readFileSync(GENERATED_FILE, "utf8")).toBe(await generatedSource());
  });

  it("every HTTP binding of the catalog has a route in the client's table", () => {
    const catalog = CATALOG.flatMap((op) => (op.http ?? []).map((b) => `${b.method} ${openApiPath(b.path)}`)).sort();
    const client = Object.values(ROUTES).map((r) => `${r.method} ${r.path}`).sort();
    expect(client).toEqual(catalog);
  });

  it("inputs are flat (path, query and body fields together) and outputs are the catalog's", () => {
    expectTypeOf<Input<"session_memory.read">>().toEqualTypeOf<{ repo: string; q?: string; limit?: number; as_of?: string }>();
    expectTypeOf<Input<"session_memory.upsert">>().toHaveProperty("triples");
    expectTypeOf<Input<"session_memory.upsert">["repo"]>().toEqualTypeOf<string>();
    expectTypeOf<Output<"execution.identity">>().toEqualTypeOf<{ tenant_id: string; subject_id: string; session_id: string; parent_session_id: string; expires_at: string }>();
    expectTypeOf<Output<"session_memory.clear">["stores"][number]["status"]>().toEqualTypeOf<"done" | "pending">();
    expectTypeOf<Output<"session_memory.history">["versions"][number]["valid_to"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Output<"memory.recall.session">["results"][number]["score"]>().toEqualTypeOf<number>();
  });
});

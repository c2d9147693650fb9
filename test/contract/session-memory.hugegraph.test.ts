/**
 * The unchanged VER-1 contract suite against a real HugeGraph server
 * (MEMORY_STORE=hugegraph). Tests isolate by fresh tenant/session/namespace
 * IDs. Vectors: the local exact-similarity index (VECTOR_INDEX=local keeps
 * them beside the relational store for this adapter; here in process memory).
 * Skipped with a printed reason when HUGEGRAPH_URL is not reachable; a
 * failure under REQUIRE_SERVICES=1.
 */
import { beforeAll, vi } from "vitest";
import { HugeGraphClient } from "../../db/graph/hugegraph/client";
import { HugeGraphSessionStore } from "../../db/graph/hugegraph/session-store";
import { LocalVectorIndex, MemoryVectorRows } from "../../db/vector/local";
import { describeWithService, probeService } from "../support/services";
import { sessionMemoryContract, type SessionMemoryHarness } from "./session-memory.contract";

const hugegraph = await probeService("hugegraph");

// Every write is two HTTP round trips through HugeGraph's REST→Gremlin proxy and
// scans the tenant's roots: the tenant-scale tests (2,048 clears; 128 full
// namespaces) take minutes here, not seconds. The suite itself is unchanged.
vi.setConfig({ testTimeout: 400_000 });

describeWithService(hugegraph, "SessionMemoryStore contract [hugegraph]", () => {
  let harness: SessionMemoryHarness | undefined;
  beforeAll(async () => {
    const client = new HugeGraphClient({ url: hugegraph.url!, graph: process.env.HUGEGRAPH_GRAPH ?? "hugegraph" });
    const store = new HugeGraphSessionStore(client);
    await store.ensureSchema();
    harness = { store, vectors: new LocalVectorIndex(new MemoryVectorRows()) };
  }, 120_000);
  sessionMemoryContract(() => harness!);
});

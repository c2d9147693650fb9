/**
 * RepositoryMemoryStore on a real HugeGraph server (MEM-6): the shared contract suite
 * (repository-memory.contract.ts, unchanged), plus every operation run side
 * by side with the in-memory reference adapter. Fresh repository IDs per test.
 */
import { beforeAll } from "vitest";
import { HugeGraphClient } from "../../db/graph/hugegraph/client";
import { HugeGraphRepositoryStore } from "../../db/graph/hugegraph/repository-store";
import { describeWithService, probeService } from "../support/services";
import { repositoryMemoryContract } from "./repository-memory.contract";
import { repositoryReferenceChecks } from "./repository-memory.reference";

const hugegraph = await probeService("hugegraph");

describeWithService(hugegraph, "RepositoryMemoryStore [hugegraph] against the in-memory reference", () => {
  let store: HugeGraphRepositoryStore;
  beforeAll(async () => {
    store = new HugeGraphRepositoryStore(new HugeGraphClient({ url: hugegraph.url!, graph: process.env.HUGEGRAPH_GRAPH ?? "hugegraph" }));
    await store.ensureSchema();
  }, 120_000);

  // The shared MEM-6 contract, unchanged.
  repositoryMemoryContract(() => store);
  repositoryReferenceChecks(() => store);
});

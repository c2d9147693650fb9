/**
 * RepositoryMemoryStore on a real Neo4j (MEM-6): the shared contract suite
 * (repository-memory.contract.ts, unchanged), plus every operation run side
 * by side with the in-memory reference adapter. Fresh repository IDs per test.
 */
import { afterAll, beforeAll } from "vitest";
import type { Driver } from "neo4j-driver";
import { Neo4jRepositoryStore } from "../../db/graph/neo4j/repository-store";
import { describeWithService, probeService } from "../support/services";
import { neo4jFromEnv } from "../support/neo4j";
import { repositoryMemoryContract } from "./repository-memory.contract";
import { repositoryReferenceChecks } from "./repository-memory.reference";

const neo4j = await probeService("neo4j");

describeWithService(neo4j, "RepositoryMemoryStore [neo4j] against the in-memory reference", () => {
  let driver: Driver;
  let store: Neo4jRepositoryStore;
  beforeAll(async () => {
    driver = neo4jFromEnv();
    store = new Neo4jRepositoryStore(driver);
    await store.ensureSchema();
  });
  afterAll(async () => {
    await driver?.close();
  });

  // The shared MEM-6 contract, unchanged.
  repositoryMemoryContract(() => store);
  repositoryReferenceChecks(() => store);
});

/**
 * The Neo4j connection (MEMORY_STORE=neo4j): one driver per process, numbers
 * as JS numbers (`disableLosslessIntegers`: every integer we store — epoch
 * ms, revisions, counts — is below 2^53), and `int()` for values that Cypher
 * needs as integers (LIMIT, stored timestamps and counters).
 */
import neo4j, { type Driver, type Integer, type ManagedTransaction } from "neo4j-driver";

export interface Neo4jOptions {
  url: string;
  user?: string | undefined;
  /** No password: connect without authentication (the embedded test server has auth disabled). */
  password?: string | undefined;
  /** Default: the server's default database. */
  database?: string | undefined;
}

export function openNeo4j(opts: Neo4jOptions): Driver {
  const auth = opts.password ? neo4j.auth.basic(opts.user ?? "neo4j", opts.password) : undefined;
  // A server that is away answers within seconds, not the driver's 30 s of retries: a request is
  // answered 503 dependency_unavailable promptly, and the caller (or the job's retry) tries again.
  return neo4j.driver(opts.url, auth, {
    disableLosslessIntegers: true,
    maxConnectionPoolSize: 50,
    connectionAcquisitionTimeout: 30_000,
    connectionTimeout: 5_000,
    maxTransactionRetryTime: 3_000,
  });
}

/** An integer parameter (Cypher refuses floats for LIMIT; stored counters stay integers). */
export function int(n: number): Integer {
  return neo4j.int(Math.trunc(n));
}

export type Tx = ManagedTransaction;

/** Runs a constant query and returns its rows as plain objects. */
export async function rows<T = Record<string, unknown>>(tx: Tx, query: string, params: Record<string, unknown>): Promise<T[]> {
  const res = await tx.run(query, params);
  return res.records.map((r) => r.toObject() as T);
}

export async function one<T = Record<string, unknown>>(tx: Tx, query: string, params: Record<string, unknown>): Promise<T> {
  const r = await rows<T>(tx, query, params);
  if (r.length !== 1) throw new Error(`expected one row, got ${r.length}`);
  return r[0]!;
}

export interface Neo4jStoreOptions {
  /** Default: the server's default database. */
  database?: string | undefined;
  /** Awaited before every operation (e.g. `onceSchema(...)`): lets a synchronous composition root build stores. */
  schema?: (() => Promise<void>) | undefined;
}

/**
 * What every Neo4j store shares: the driver, the database, the schema step
 * awaited before each operation, and one managed transaction per call.
 */
export abstract class Neo4jStore {
  readonly kind = "neo4j";
  protected readonly database: string | undefined;
  private readonly schema: (() => Promise<void>) | undefined;

  constructor(
    protected readonly driver: Driver,
    opts: Neo4jStoreOptions = {},
  ) {
    this.database = opts.database;
    this.schema = opts.schema;
  }

  async ping(): Promise<void> {
    await this.driver.verifyConnectivity(this.database ? { database: this.database } : {});
  }

  protected async run<T>(mode: "READ" | "WRITE", fn: (tx: Tx) => Promise<T>): Promise<T> {
    await this.schema?.();
    const session = this.driver.session({ defaultAccessMode: mode, ...(this.database ? { database: this.database } : {}) });
    try {
      return mode === "READ" ? await session.executeRead(fn) : await session.executeWrite(fn);
    } finally {
      await session.close();
    }
  }
}

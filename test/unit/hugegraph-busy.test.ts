/**
 * The HugeGraph client and a busy server: a request refused for want of a worker thread
 * (503, ServiceUnavailableException — nothing ran) is sent again and answered; a server that stays
 * busy fails the call with that 503 after BUSY_RETRIES more sends; any other 503 is not resent.
 * The server here is a small HTTP listener that answers as HugeGraph's REST server does.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { BUSY_RETRIES, HugeGraphClient, HugeGraphError } from "../../db/graph/hugegraph/client";

const BUSY = { exception: "class jakarta.ws.rs.ServiceUnavailableException", message: "The server is too busy to process the request" };

let server: Server | undefined;
afterEach(async () => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** A server that refuses the first `busy` requests as busy (or with `other`), then answers `data`. */
async function serve(busy: number, other?: { status: number; body: unknown }): Promise<{ client: HugeGraphClient; requests: () => number }> {
  let n = 0;
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      n++;
      res.setHeader("Content-Type", "application/json");
      if (n <= busy) {
        res.statusCode = other?.status ?? 503;
        res.end(JSON.stringify(other?.body ?? BUSY));
        return;
      }
      res.end(JSON.stringify({ result: { data: ["ok"] }, status: { code: 200 } }));
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  return { client: new HugeGraphClient({ url: `http://127.0.0.1:${port}` }), requests: () => n };
}

describe("HugeGraph client: a busy server", () => {
  it("a request the server refused as busy is sent again and answered", async () => {
    const { client, requests } = await serve(3);
    expect(await client.gremlin("g.V().count()")).toEqual(["ok"]);
    expect(requests()).toBe(4);
  });

  it("a server that stays busy fails the call with its 503 after BUSY_RETRIES more sends", async () => {
    const { client, requests } = await serve(1_000);
    const err = await client.gremlin("g.V().count()").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HugeGraphError);
    expect((err as HugeGraphError).status).toBe(503);
    expect(requests()).toBe(BUSY_RETRIES + 1);
  });

  it("another 503 (the graph unavailable, not the server busy) is not sent again", async () => {
    const { client, requests } = await serve(1, { status: 503, body: { exception: "class org.apache.hugegraph.HugeException", message: "graph closed" } });
    await expect(client.gremlin("g.V().count()")).rejects.toMatchObject({ status: 503 });
    expect(requests()).toBe(1);
  });
});

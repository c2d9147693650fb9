/**
 * LISTEN on a dedicated PostgreSQL connection that comes back by itself.
 *
 * The server can drop the connection at any time (a restart, a failover,
 * pg_terminate_backend). The listener then reconnects with jittered backoff
 * (core/retry.ts) for as long as it is open, and calls `onReconnect` once it
 * listens again: notifications sent while it was away are lost, so the caller
 * looks for work it may have missed (the job sources poll their pool).
 */
import pg from "pg";
import { jitteredDelay } from "../core/retry";

export const CHANNEL_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;
const RECONNECT = { baseMs: 100, maxMs: 5_000 };

export interface ListenOptions {
  config: pg.ClientConfig;
  channel: string;
  onPayload: (payload: string) => void;
  onReconnect?: () => void;
}

/** Listens (the first connection must succeed: it fails fast) and returns the unlisten function. */
export async function listenResilient(o: ListenOptions): Promise<() => Promise<void>> {
  if (!CHANNEL_PATTERN.test(o.channel)) throw new Error("invalid channel name");
  let closed = false;
  let current: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<pg.Client> => {
    const client = new pg.Client(o.config);
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (current === client) current = undefined;
      client.end().catch(() => undefined);
      if (!closed) schedule(0);
    };
    client.on("error", onLost);
    client.on("end", onLost);
    client.on("notification", (n) => o.onPayload(n.payload ?? ""));
    try {
      await client.connect();
      await client.query(`LISTEN ${o.channel}`);
    } catch (err) {
      lost = true; // no reconnect from the listeners of a client that never listened
      await client.end().catch(() => undefined);
      throw err;
    }
    return client;
  };

  const schedule = (attempt: number) => {
    timer = setTimeout(() => {
      timer = undefined;
      connect().then(
        (client) => {
          if (closed) return void client.end().catch(() => undefined);
          current = client;
          o.onReconnect?.();
        },
        () => {
          if (!closed) schedule(attempt + 1);
        },
      );
    }, jitteredDelay(attempt, RECONNECT) + (attempt === 0 ? 0 : RECONNECT.baseMs));
    timer.unref();
  };

  current = await connect();
  return async () => {
    closed = true;
    if (timer) clearTimeout(timer);
    await current?.end().catch(() => undefined);
    current = undefined;
  };
}

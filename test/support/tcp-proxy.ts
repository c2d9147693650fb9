/**
 * A TCP proxy on 127.0.0.1 in front of a real server, for outage tests that
 * must not disturb the shared server: `cut()` drops every open connection and
 * refuses new ones (the server looks unreachable to whoever connects through
 * the proxy), `restore()` accepts again.
 */
import net from "node:net";

export interface TcpProxy {
  host: string;
  port: number;
  /** Drops every connection and refuses new ones until restore(). */
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(targetPort, targetHost);
        for (const x of [client, upstream]) {
          sockets.add(x);
          x.on("close", () => sockets.delete(x));
          x.on("error", () => x.destroy());
        }
        client.pipe(upstream);
        upstream.pipe(client);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        const a = s.address();
        port = typeof a === "object" && a ? a.port : port;
        server = s;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const x of sockets) x.destroy();
      sockets.clear();
      if (!server) return resolve();
      const s = server;
      server = undefined;
      s.close(() => resolve());
    });
  await listen();
  return {
    host: "127.0.0.1",
    get port() {
      return port;
    },
    cut: stop,
    restore: async () => {
      if (!server) await listen();
    },
    close: stop,
  };
}

/** A proxy in front of the server a URL names, and the same URL pointed through it. */
export async function proxyFor(url: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const proxy = await startTcpProxy(target.hostname, target.port ? Number(target.port) : defaultPort);
  const through = new URL(url);
  through.hostname = proxy.host;
  through.port = String(proxy.port);
  return { proxy, url: through.toString() };
}

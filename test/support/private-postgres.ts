/**
 * A private, throw-away PostgreSQL server (the installed Debian binaries, a
 * fresh data directory, an ephemeral port), for fault tests that restart or
 * stop the server without disturbing the shared one other suites use. The
 * server runs as the `postgres` user when the tests run as root (PostgreSQL
 * refuses root).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { userInfo } from "node:os";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./private-redis";

export interface PrivatePostgres {
  url: string;
  /** `pg_ctl restart -m fast`: every connection is terminated, the server is back when this resolves. */
  restart(): void;
  stop(): void;
}

/** The newest installed server's bin directory, or undefined. */
export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : undefined;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL server binaries are not installed");
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(path.join(tmpdir(), "cs-private-pg-"));
  const data = path.join(dir, "data");
  if (asRoot) {
    const uid = Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim());
    const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) =>
    execFileSync(asRoot ? "runuser" : path.join(bin, tool), asRoot ? ["-u", "postgres", "--", path.join(bin, tool), ...args] : args, { stdio: "pipe", cwd: dir });
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const opts = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=200`;
  const ctl = (action: string, extra: string[] = []) => run("pg_ctl", [action, "-D", data, "-w", "-t", "60", "-l", path.join(dir, "log"), "-o", opts, ...extra]);
  ctl("start");
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: () => void ctl("restart", ["-m", "fast"]),
    stop: () => {
      if (stopped) return;
      stopped = true;
      try {
        run("pg_ctl", ["stop", "-D", data, "-m", "immediate", "-w"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

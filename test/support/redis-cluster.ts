/**
 * Redis Cluster for tests: the shared one test/services/redis-cluster.sh starts
 * (REDIS_CLUSTER_NODES), and a private six-node one (three masters, three replicas) a
 * failover test may stop nodes of without disturbing other suites.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Cluster } from "ioredis";
import { clusterNodesOf } from "../../queues/dispatch/redis-connection";
import { freePort, redisServerBinary } from "./private-redis";
import { tcpReachable, type ServiceStatus } from "./services";

export function clusterNodesFromEnv(): string[] | undefined {
  const v = process.env.REDIS_CLUSTER_NODES?.trim();
  return v ? v.split(",").map((s) => s.trim()) : undefined;
}

/** The shared cluster's status for describeWithService (REQUIRE_SERVICES=1 turns a skip into a failure). */
export async function probeRedisCluster(): Promise<ServiceStatus & { nodes: string[] }> {
  const nodes = clusterNodesFromEnv();
  if (!nodes) return { name: "redis", url: undefined, available: false, reason: "REDIS_CLUSTER_NODES is not set (Redis Cluster)", nodes: [] };
  const { host, port } = clusterNodesOf(nodes)[0]!;
  const ok = await tcpReachable(host, port);
  return { name: "redis", url: nodes.join(","), available: ok, reason: ok ? "reachable" : `Redis Cluster node ${host}:${port} is not reachable`, nodes };
}

/** Every key under a prefix, on every master of the cluster. */
export async function clusterKeys(cluster: Cluster, pattern: string): Promise<string[]> {
  const out: string[] = [];
  for (const node of cluster.nodes("master")) out.push(...(await node.keys(pattern)));
  return out;
}

export interface PrivateCluster {
  nodes: string[];
  /** The port of the master serving `slot`, asked of a live node (undefined while none does). */
  masterOf(slot: number): number | undefined;
  /** CLUSTER KEYSLOT of a key. */
  keyslot(key: string): number;
  /** The replica of the master on `port`. */
  replicaOf(port: number): number;
  /** Stops the node on `port` (SIGKILL: it answers nothing from now on, like a crashed host). */
  kill(port: number): Promise<void>;
  stop(): Promise<void>;
}

const cli = (port: number, ...args: string[]) => spawnSync("redis-cli", ["-h", "127.0.0.1", "-p", String(port), ...args], { encoding: "utf8" });

export async function startPrivateCluster(): Promise<PrivateCluster> {
  const bin = redisServerBinary();
  if (!bin) throw new Error("redis-server is not installed");
  const dir = mkdtempSync(path.join(tmpdir(), "cs-cluster-"));
  const ports: number[] = [];
  const procs = new Map<number, ChildProcess>();
  while (ports.length < 6) {
    const p = await freePort();
    if (!ports.includes(p)) ports.push(p);
  }
  for (const port of ports) {
    const bus = await freePort();
    const child = spawn(
      bin,
      ["--bind", "127.0.0.1", "--port", String(port), "--cluster-enabled", "yes", "--cluster-port", String(bus), "--cluster-config-file", path.join(dir, `nodes-${port}.conf`),
        "--cluster-node-timeout", "2000", "--dir", dir, "--logfile", path.join(dir, `${port}.log`), "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
      { stdio: "ignore" },
    );
    procs.set(port, child);
  }
  // A test that times out may never reach stop(): the nodes end with the test process.
  const reap = () => {
    for (const c of procs.values()) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  };
  process.once("exit", reap);
  for (const port of ports) {
    const deadline = Date.now() + 15_000;
    while (!(await tcpReachable("127.0.0.1", port, 300))) {
      if (Date.now() > deadline) throw new Error("a private cluster node did not start");
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const create = spawnSync("redis-cli", ["--cluster", "create", ...ports.map((p) => `127.0.0.1:${p}`), "--cluster-replicas", "1", "--cluster-yes"], { encoding: "utf8" });
  if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
  const live = () => ports.find((p) => procs.get(p)!.exitCode === null && procs.get(p)!.signalCode === null)!;
  const clusterNodes = () =>
    cli(live(), "cluster", "nodes")
      .stdout.trim()
      .split("\n")
      .map((l) => l.split(" "));
  const deadline = Date.now() + 30_000;
  // Ready when the cluster is ok and every replica has synced with its master: a replica that never
  // synced cannot take over (its data would be of unknown age).
  const synced = () => ports.filter((p) => /master_link_status:up/.test(cli(p, "info", "replication").stdout)).length;
  while (!/cluster_state:ok/.test(cli(ports[0]!, "cluster", "info").stdout) || synced() < 3) {
    if (Date.now() > deadline) throw new Error("the private cluster did not reach state ok");
    await new Promise((r) => setTimeout(r, 200));
  }
  const portOf = (addr: string) => Number(addr.split("@")[0]!.split(":")[1]);
  return {
    nodes: ports.map((p) => `127.0.0.1:${p}`),
    masterOf(slot) {
      for (const f of clusterNodes()) {
        if (!f[2]!.includes("master") || f[2]!.includes("fail")) continue;
        for (const range of f.slice(8)) {
          const [a, b] = range.split("-").map(Number);
          if (slot >= a! && slot <= (b ?? a!)) return portOf(f[1]!);
        }
      }
      return undefined;
    },
    keyslot: (key) => Number(cli(live(), "cluster", "keyslot", key).stdout.trim()),
    replicaOf(port) {
      const rows = clusterNodes();
      const master = rows.find((f) => portOf(f[1]!) === port)!;
      const replica = rows.find((f) => f[3] === master[0]);
      if (!replica) throw new Error("the master has no replica");
      return portOf(replica[1]!);
    },
    kill: (port) =>
      new Promise<void>((resolve) => {
        const child = procs.get(port)!;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
    async stop() {
      process.off("exit", reap);
      await Promise.all(
        [...procs.values()].map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once("exit", () => resolve());
              child.kill("SIGTERM");
            }),
        ),
      );
      if (!process.env.KEEP_CLUSTER_DIR) rmSync(dir, { recursive: true, force: true });
    },
  };
}

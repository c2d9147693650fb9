/** The durable MCP sessions (core/mcp-sessions.ts) in the relational database: the verbs beside it. */
import type { McpSessionStore } from "../../../core/mcp-sessions";
import type { Db } from "../../schema";
import { bindMcpSession } from "./bindMcpSession";
import { createMcpSession } from "./createMcpSession";
import { deleteMcpSession } from "./deleteMcpSession";
import { liveMcpSessions } from "./liveMcpSessions";
import { sweepMcpSessions } from "./sweepMcpSessions";
import { touchMcpSession } from "./touchMcpSession";

export function postgresMcpSessionStore(db: Db): McpSessionStore {
  return {
    create: (sid, init, owner, now) => createMcpSession(db, sid, init, owner, now),
    touch: (sid, now) => touchMcpSession(db, sid, now),
    bind: (sid, owner) => bindMcpSession(db, sid, owner),
    remove: (sid) => deleteMcpSession(db, sid),
    live: (sids, now) => liveMcpSessions(db, sids, now),
    sweep: (now, limit) => sweepMcpSessions(db, now, limit),
  };
}

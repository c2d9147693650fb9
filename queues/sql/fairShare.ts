/**
 * The order in which the claim (./claimJobs.ts) takes a pool's queued rows: the `next` CTE
 * of that one statement, and nothing else (no statement of its own).
 *
 * FIFO (`fair` absent): the due rows by (run_at, id).
 *
 * Fair share (`fair` given): organisations take turns, sessions within an organisation take
 * turns, and one session's rows stay first-in, first-out. With A's 2,000 rows queued before
 * B's 20, a batch of 8 takes 4 of A's and 4 of B's, not 8 of A's. Inputs and steps:
 *   keys    every (organisation, session) with a queued row in the pool: a loose index scan
 *           over jobs_fair_idx (one index probe per key, however many rows each key has);
 *           system rows (no identity) are the key ('', '');
 *   running the pool's running rows per key (jobs_running_key_idx: as many as the pool runs);
 *   heads   each key's first `limit` due rows in (run_at, id) order; s_rank = the key's running
 *           rows + 1, + 2, … — turns count what already runs, so claims of one row at a time
 *           (a slot freed) still alternate: the organisation running fewest goes first;
 *   ranked  o_rank: the organisation's running rows + its position, sessions interleaved by
 *           s_rank (a session's k-th turn before any session's k+1-th), ties by the session's
 *           oldest row; an operator weight w gives the organisation w turns per round
 *           (turn = ceil(o_rank / w)); with `runningPerOrg`, only rows with o_rank <= cap
 *           (system rows are never capped);
 *   fair    the rows by (turn, organisation's oldest due row, organisation), locked
 *           `for update skip locked` exactly like the FIFO path — the rechecks of status, pool
 *           and run_at are repeated on the locked row, so a row another claimer took in the
 *           meantime is skipped, never claimed twice;
 *   fill    when concurrent claimers took some candidates (skip locked), the rest of the batch
 *           first-in, first-out, likewise locked — so a claim is short only when the pool is
 *           drained (not with a running cap: then a claim may come back short, and the pool
 *           claims again when woken);
 *   next    fair, then fill, each row with its place in that order (`pos`): the claim returns
 *           its rows in it, so a claim of many rows starts them fairly too (an UPDATE's
 *           RETURNING follows the join, not the order the rows were chosen in).
 * Invariants: the statement still claims at most `limit` rows, only due `queued` rows of the
 * pool, each by one claimer; within a session the order is FIFO.
 * Cost: (distinct queued keys of the pool) index probes, a read of the pool's running rows, and
 * at most keys × limit candidate rows sorted, per claim — independent of the backlog's depth
 * (docs/jobs.md, "Fair share").
 * The running cap is read in the same snapshot: two claims committing at the same instant can
 * each see n < cap, so with W worker processes it may be exceeded by at most W - 1 momentarily.
 */
import { sql, type RawBuilder } from "kysely";

export interface FairShare {
  /** Most running rows of one organisation in the pool (unset: no cap). */
  runningPerOrg?: number;
  /** Operator-set weights by organisation id: weight w = w turns per round (others 1). */
  weights?: ReadonlyMap<string, number>;
}

export interface NextOptions {
  pool: string;
  now: Date;
  limit: number;
  ids?: readonly string[];
  fair?: FairShare;
}

/**
 * The `with … next as (select id, pos …)` head of the claim statement: `pos` orders the rows
 * as they were chosen (the claim returns them in that order, and the source starts them in it).
 */
export function nextRows(o: NextOptions): RawBuilder<unknown> {
  // A claim restricted to given ids has nothing to choose between: FIFO over those ids.
  if (!o.fair || o.ids) {
    const byId = o.ids ? sql`and id = any(${[...o.ids]}::text[])` : sql``;
    return sql`with locked as (
      select id, run_at from jobs
      where status = 'queued' and pool = ${o.pool} and run_at <= ${o.now} ${byId}
      order by run_at, id
      limit ${o.limit}
      for update skip locked
    ), next as (
      select id, row_number() over (order by run_at, id) as pos from locked
    )`;
  }
  const cap = o.fair.runningPerOrg;
  const weights = [...(o.fair.weights ?? new Map<string, number>())];
  const capFilter = cap === undefined ? sql`` : sql`where r.t = '' or r.o_rank <= ${cap}`;
  const weightOf = weights.length === 0 ? sql`1` : sql`coalesce((select w from unnest(${weights.map(([k]) => k)}::text[], ${weights.map(([, w]) => w)}::int[]) as wt(t, w) where wt.t = r.t), 1)`;
  // Concurrent claimers see the same candidates and skip each other's locks: what the fair
  // candidates could not fill is filled first-in, first-out (never with a running cap, which
  // the FIFO scan does not know), so a claim comes back short only when the pool is drained.
  const fill = cap !== undefined ? sql`` : sql`, fill as (
      select id, run_at from jobs
       where status = 'queued' and pool = ${o.pool} and run_at <= ${o.now} and id <> all(array(select id from fair))
       order by run_at, id
       limit greatest(${o.limit} - (select count(*) from fair), 0)
       for update skip locked
    )`;
  return sql`with recursive keys as (
      (select coalesce(tenant_id, '') as t, coalesce(session_id, '') as s from jobs
        where status = 'queued' and pool = ${o.pool} order by 1, 2 limit 1)
      union all
      select n.t, n.s from keys k, lateral (
        select coalesce(tenant_id, '') as t, coalesce(session_id, '') as s from jobs
         where status = 'queued' and pool = ${o.pool} and (coalesce(tenant_id, ''), coalesce(session_id, '')) > (k.t, k.s)
         order by 1, 2 limit 1) n
    ), running as (
      select coalesce(tenant_id, '') as t, coalesce(session_id, '') as s, count(*) as n from jobs
       where status = 'running' and pool = ${o.pool} group by 1, 2
    ), heads as (
      select h.id, h.run_at, k.t, k.s,
             h.n + coalesce((select n from running where running.t = k.t and running.s = k.s), 0) as s_rank,
             min(h.run_at) over (partition by k.t, k.s) as s_first
        from keys k, lateral (
          select id, run_at, row_number() over (order by run_at, id) as n from jobs
           where status = 'queued' and pool = ${o.pool} and coalesce(tenant_id, '') = k.t and coalesce(session_id, '') = k.s
             and run_at <= ${o.now}
           order by run_at, id limit ${o.limit}) h
    ), ranked as (
      select id, t, run_at, min(run_at) over (partition by t) as o_first,
             row_number() over (partition by t order by s_rank, s_first, s)
               + coalesce((select sum(n) from running where running.t = heads.t), 0) as o_rank
        from heads
    ), turns as (
      select r.id, r.t, r.o_first, r.run_at, ceil(r.o_rank::numeric / ${weightOf}) as turn
        from ranked r ${capFilter}
    ), ord as (
      -- The candidates in claiming order, as one array: the lock below then reads the rows by primary key.
      select array_agg(id order by turn, o_first, t, run_at, id) as ids from turns
    ), fair as (
      select j.id, array_position(ord.ids, j.id) as pos from ord, jobs j
       where j.id = any(ord.ids) and j.status = 'queued' and j.pool = ${o.pool} and j.run_at <= ${o.now}
       order by array_position(ord.ids, j.id)
       limit ${o.limit}
       for update of j skip locked
    )${fill}, next as (
      select id, pos from fair
      ${cap === undefined ? sql`union all select id, ${o.limit} + row_number() over (order by run_at, id) as pos from fill` : sql``}
    )`;
}

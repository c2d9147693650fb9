/**
 * `npm run bench`: every benchmark, one after another, so the side-by-side
 * numbers within each table come from the same conditions. Set
 * TEST_DATABASE_URL / REDIS_URL / NEO4J_URL / MILVUS_URL / HUGEGRAPH_URL
 * (`set -a; . test/services/.env.services; set +a`) for the server columns.
 * BENCH_ONLY=identity,recall,recall-quality,recall-conversation,model-cost,stores,jobs,fairness,parse-quality,ingest,offload-quality selects some (BENCH_JOBS_ONLY=cs-pg,…
 * the systems of the jobs table). Named on the command line, `npm run bench -- registry-scale`
 * (or `scale-curve`, or `stall`: requests during a first ingest on the embedded default, or `mixed`: the
 * mixed runtime workload against `serve` and workers), only those run; these four are never part of the
 * default set (they take minutes). BENCH_CONVERSATION_SWEEP=1 adds recall-conversation's fusion sweep (dev half).
 */
import { benchFairness, printFairness } from "./fairness";
import { benchIdentity, printIdentity } from "./identity";
import { benchIngest, printIngest } from "./ingest";
import { benchJobs, printJobs } from "./jobs";
import { benchMixed, printMixed } from "./mixed";
import { benchModelCost, printModelCost } from "./model-cost";
import { benchOffloadQuality, printOffloadQuality } from "./offload-quality";
import { benchParseQuality, printParseQuality } from "./parse-quality";
import { benchRecall, printRecall } from "./recall";
import { benchRecallConversation, printRecallConversation } from "./recall-conversation";
import { benchRecallQuality, printRecallQuality } from "./recall-quality";
import { benchStores, printStores } from "./stores";
import { benchRegistryScale } from "./registry-scale";
import { benchScaleCurve } from "./scale-curve";
import { benchStall, printStall } from "./stall";

process.env.TEST_DATABASE_URL ??= process.env.DATABASE_URL;
const named = process.argv.slice(2).flatMap((a) => a.split(",")).filter(Boolean);
const only = named.length > 0 ? named : (process.env.BENCH_ONLY ?? "").split(",").filter(Boolean);
const want = (name: string) => only.length === 0 || only.includes(name);

if (want("identity")) printIdentity(await benchIdentity());
if (want("recall")) printRecall(await benchRecall());
if (want("recall-quality")) printRecallQuality(await benchRecallQuality());
if (want("model-cost")) printModelCost(await benchModelCost());
if (want("recall-conversation")) printRecallConversation(await benchRecallConversation({ sweep: process.env.BENCH_CONVERSATION_SWEEP === "1" }));
if (want("stores")) printStores(await benchStores());
if (want("jobs")) printJobs(await benchJobs());
if (want("fairness")) printFairness(await benchFairness());
if (want("parse-quality")) printParseQuality(await benchParseQuality());
if (want("ingest")) printIngest(await benchIngest());
if (want("offload-quality")) printOffloadQuality(await benchOffloadQuality());
if (only.includes("registry-scale")) await benchRegistryScale();
if (only.includes("scale-curve")) await benchScaleCurve();
if (only.includes("stall")) printStall(await benchStall());
if (only.includes("mixed")) printMixed(await benchMixed());
process.exit(process.exitCode ?? 0);

import { latencyAll } from "./recall";
const latency: Parameters<typeof latencyAll>[0] = [];
await latencyAll(latency);
console.table(latency);
process.exit(0);

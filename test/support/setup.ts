// Runs before every test file. Keeps test output free of the app's info logs.
process.env.LOG_LEVEL ??= "silent";
// An answer that breaks its operation's output schema is a 500 in every test (api/output-check.ts),
// in this process and in the servers the tests start.
process.env.OUTPUT_SCHEMA_MISMATCH ??= "fail";

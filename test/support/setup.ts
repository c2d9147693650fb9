// Runs before every test file. Keeps test output free of the app's info logs.
process.env.LOG_LEVEL ??= "silent";

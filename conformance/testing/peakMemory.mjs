// Loaded with --import into a child process a test runs: on exit it writes the process's peak
// resident memory (bytes) to stderr, for tests that hold the suite to a memory bound.
process.on('exit', () => process.stderr.write(`\npeak-rss-bytes ${process.resourceUsage().maxRSS * 1024}\n`));

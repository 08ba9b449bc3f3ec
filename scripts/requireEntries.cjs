// Requires every code entry point of the package from CommonJS, by the package's own name (Node
// resolves a package's name to itself through its `exports`), on whichever Node runs it: an
// ES-module-only package is loadable by `require()` from Node 20.19, 22.12 and 24.
const entries = ['mock', 'conformance', 'msw', 'playwright', 'vite', 'types'];
const failed = [];
for (const name of entries) {
  try {
    const loaded = require(`pet-adoption-toolkit/${name}`);
    if (Object.keys(loaded).filter((k) => k !== '__esModule').length === 0) failed.push(`${name}: exports nothing`);
  } catch (error) {
    failed.push(`${name}: ${error.message.split('\n')[0]}`);
  }
}
if (failed.length > 0) {
  console.error(`require() from CommonJS failed on Node ${process.version}:\n  ${failed.join('\n  ')}`);
  process.exitCode = 1;
} else console.log(`Node ${process.version}: require() loads ${entries.join(', ')}`);

#!/usr/bin/env node
// Tiny launcher, CommonJS on purpose (bin/package.json): Node starts a CommonJS entry faster than an
// ES module, and `codey --version` answers here from package.json without loading the bundle. All
// else runs the built ESM CLI.
'use strict';
const [, , first, ...rest] = process.argv;
if (rest.length === 0 && (first === '--version' || first === '-v' || first === '-version')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  import('../dist/cli.js').catch((err) => {
    // A checkout that was never built (no dist/), or whose dependencies are not installed.
    if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
      const what = String(err.message).split('\n')[0];
      process.stderr.write(
        `codey: cannot start: ${what}\ncodey: run npm ci first (it installs the dependencies and builds dist/), then try again\n`,
      );
      process.exit(1);
    }
    throw err;
  });
}

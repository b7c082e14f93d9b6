#!/usr/bin/env node
// Tiny launcher, CommonJS on purpose (bin/package.json): Node starts a CommonJS entry faster than an
// ES module, and `codey --version` answers here from package.json without loading the bundle. All
// else runs the built ESM CLI; in a terminal, the keys typed while it loads are held first
// (dist/held-keys.js: raw mode, no echo, kept for the input box).
'use strict';
const [, , first, ...rest] = process.argv;
if (rest.length === 0 && (first === '--version' || first === '-v' || first === '-version')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  const tty = require('node:tty');
  const held = tty.isatty(0) && tty.isatty(1) ? import('../dist/held-keys.js') : undefined;
  Promise.resolve(held && held.then((m) => m.holdEarly(process.argv.slice(2))))
    .then(() => import('../dist/cli.js'))
    .catch((err) => {
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

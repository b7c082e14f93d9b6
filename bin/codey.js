#!/usr/bin/env node
// Tiny launcher. `codey --version` answers from package.json without loading the bundle, so it costs
// little more than starting Node; everything else runs the built CLI.
const [, , first, ...rest] = process.argv;
if (rest.length === 0 && (first === '--version' || first === '-v' || first === '-version')) {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(
    `${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`,
  );
} else {
  await import('../dist/cli.js');
}

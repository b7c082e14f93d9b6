// Exits 1 naming each .js file under src/ that does not start with the licence header.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const HEADER = '// SPDX-License-Identifier: MIT\n';
const files = readdirSync('src', { recursive: true }).filter((f) => f.endsWith('.js'));
const missing = files.filter((f) => !readFileSync(join('src', f), 'utf8').startsWith(HEADER));
for (const f of missing) console.log(`no header: src/${f}`);
console.log(
  missing.length ? `${missing.length} of ${files.length} lack the header` : `all ${files.length} have it`,
);
process.exitCode = missing.length ? 1 : 0;

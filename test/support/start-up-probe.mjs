// Loaded with `node --import` into the built CLI (test/e2e/start-up-bundle.test.ts): records what one
// start loads, as JSON lines appended to $CODEY_PROBE_OUT: `{ "file": URL }` for each ES module file
// (through the loader hooks in ./start-up-probe-hooks.mjs), then at exit `{ "builtins": [...],
// "flagsChanged": bool }`: Node's own modules loaded, and whether a V8 flag changed during the run
// (which makes the code cache Node ships for its modules stop matching).
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { cachedDataVersionTag } from 'node:v8';

const out = process.env.CODEY_PROBE_OUT;
const tag = cachedDataVersionTag();
register('./start-up-probe-hooks.mjs', import.meta.url);
process.on('exit', () => {
  const builtins = process.moduleLoadList
    .filter((m) => m.startsWith('NativeModule '))
    .map((m) => m.slice('NativeModule '.length));
  appendFileSync(out, `${JSON.stringify({ builtins, flagsChanged: cachedDataVersionTag() !== tag })}\n`);
});

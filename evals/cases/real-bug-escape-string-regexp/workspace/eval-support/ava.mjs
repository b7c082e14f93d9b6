// A stand-in for the part of ava's API this test.js uses: test(title, fn) with t.is and t.regex.
// Tests run in order after the file is loaded; each prints ✔ or ✘; any failure sets exit code 1.
import assert from 'node:assert/strict';

const tests = [];
const t = {
  is: (actual, expected) => assert.equal(actual, expected),
  regex: (string, regex) => assert.match(string, regex),
};

export default function test(title, fn) {
  tests.push({ title, fn });
}

setImmediate(async () => {
  let failed = 0;
  for (const { title, fn } of tests) {
    try {
      await fn(t);
      console.log(`✔ ${title}`);
    } catch (err) {
      failed++;
      console.log(`✘ ${title}\n  ${String(err.message).split('\n').join('\n  ')}`);
    }
  }
  console.log(failed ? `${failed} of ${tests.length} tests failed` : `${tests.length} tests passed`);
  process.exitCode = failed ? 1 : 0;
});

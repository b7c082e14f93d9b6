import assert from 'node:assert/strict';
import { slug } from './slug.js';

assert.equal(slug('Hello, World!'), 'hello-world');
assert.equal(slug('  Crème brûlée  recipes '), 'creme-brulee-recipes');
assert.equal(slug('--Already--sluggy--'), 'already-sluggy');
assert.equal(slug('Why 2 + 2 = 4'), 'why-2-2-4');
assert.equal(slug('one two three four five six seven eight nine'), 'one-two-three-four-five-six-seven-eight');
assert.equal(slug('a'.repeat(50)), 'a'.repeat(40));
console.log('ok: slug follows SPEC.md');

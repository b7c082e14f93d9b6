import assert from 'node:assert/strict';
import { add } from './add.js';

assert.equal(add(2, 3), 5);
assert.equal(add(-1, 1), 0);
console.log('ok: add works');

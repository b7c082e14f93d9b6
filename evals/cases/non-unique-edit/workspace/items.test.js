import assert from 'node:assert/strict';
import { priceOf, weightOf } from './items.js';

assert.equal(priceOf(undefined), 0);
assert.equal(priceOf({ price: 3 }), 3);
assert.equal(weightOf(undefined), null);
assert.equal(weightOf({ weight: 2 }), 2);
console.log('ok: items');

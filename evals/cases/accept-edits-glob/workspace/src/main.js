import { clamp } from './util/clamp.js';

console.log(clamp(12, 0, 10));

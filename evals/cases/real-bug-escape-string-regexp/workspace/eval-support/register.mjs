// `node --import ./eval-support/register.mjs test.js`: resolves `ava` to the stand-in beside this
// file, so the library's own test.js runs unchanged without installing ava (no network in an eval).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);

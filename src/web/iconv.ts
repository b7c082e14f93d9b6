import { createRequire } from 'node:module';
import type Iconv from 'iconv-lite';

const load = createRequire(import.meta.url);

/**
 * iconv-lite, loaded at its first use (Node's module cache keeps it after that): only a file that is
 * not UTF-8 or a page in another charset needs it, and loading it (a CommonJS package of several
 * files, through Node's CommonJS loader) costs every start about 10 ms otherwise.
 */
export const iconvLite = (): typeof Iconv => load('iconv-lite') as typeof Iconv;

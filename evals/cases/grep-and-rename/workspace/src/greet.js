import { fmtName } from './strings.js';

export function greet(first, last) {
  return `Hello, ${fmtName(first, last)}!`;
}

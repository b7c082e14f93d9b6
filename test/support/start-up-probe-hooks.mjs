// Module loader hooks of ./start-up-probe.mjs: each ES module file loaded, appended to $CODEY_PROBE_OUT.
import { appendFileSync } from 'node:fs';

export async function load(url, context, next) {
  if (url.startsWith('file:'))
    appendFileSync(process.env.CODEY_PROBE_OUT, `${JSON.stringify({ file: url })}\n`);
  return next(url, context);
}

// Builds dist/app.js, then watches for changes (writing a heartbeat to .watch) unless --once.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';

mkdirSync('dist', { recursive: true });
writeFileSync('dist/app.js', '// built\n');
console.log('built 3 files');
if (!process.argv.includes('--once')) {
  console.log('watching for changes (Ctrl-C to stop)');
  setInterval(() => appendFileSync('.watch', '.'), 50);
}

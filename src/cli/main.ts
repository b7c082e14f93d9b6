import { EXIT, main } from './program';

const code = await main(process.argv).catch((err: unknown) => {
  process.stderr.write(`codey: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
  return EXIT.failed;
});
process.exitCode = code;

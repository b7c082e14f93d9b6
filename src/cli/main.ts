import { EXIT, main } from './program';

const code = await main(process.argv).catch((err: unknown) => {
  process.stderr.write(`codey: internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
  return EXIT.failed;
});
// Exit as soon as the work is done: an idle keep-alive socket or a paused stdin must not keep the
// process alive. stdout and stderr writes are synchronous for files, pipes and terminals on Linux and
// macOS, and the session log was closed before main resolved.
process.exit(code);

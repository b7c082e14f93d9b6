import { BROKEN_PIPE_EXIT, guardOutput } from './broken-pipe';
import { personWriter } from './person-out';
import { EXIT, StartRefused } from './exit-codes';
import { main } from './program';

/**
 * Resolves when everything written to `stream` so far has reached the OS. A pipe whose reader is slow
 * holds 64 KiB on Linux; Node queues the rest in memory, and `process.exit` would drop it. A stream
 * that fails or is closed (the reader went away) resolves too: there is no one left to write to.
 */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable || stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('error', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('error', done);
    stream.once('close', done);
    stream.write('', done);
  });
}

// A reader that goes away (`codey -p … | head -1`) ends codey quietly with 141, as SIGPIPE would;
// another failed write to stdout (a full disk) with 1 and a line saying so.
const output = guardOutput(process.stdout, process.stderr);
const code = await main(process.argv).catch((err: unknown) => {
  if (err instanceof StartRefused) {
    personWriter((s) => process.stderr.write(s))(`${err.message}\n`);
    return EXIT.failed;
  }
  personWriter((s) => process.stderr.write(s))(
    `codey: internal error: ${err instanceof Error ? err.stack : String(err)}\n`,
  );
  return EXIT.failed;
});
// Exit as soon as the output has drained: an idle keep-alive socket or a paused stdin must not keep
// the process alive. The session log was closed before main resolved.
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
// A failed write reports its error on a later tick; let it arrive before deciding the status.
await new Promise((resolve) => setImmediate(resolve));
// A stop signal's status (129, 130, 143) stands: after SIGHUP the terminal's writes fail too.
const problem = code < 128 ? output.stdoutProblem() : undefined;
if (problem?.kind === 'failed') {
  personWriter((s) => process.stderr.write(s))(
    `codey: could not write the output (${problem.code}); check where stdout goes (a full disk?)\n`,
  );
  await flushed(process.stderr);
}
process.exit(problem ? (problem.kind === 'closed' ? BROKEN_PIPE_EXIT : EXIT.failed) : code);

/**
 * Read piped standard input (`git diff | codey -p "review this"`). Returns '' when stdin is a
 * terminal or closed. If a pipe stays open with no data for `waitMs`, give up with a notice rather
 * than hang (a script that leaves stdin open must not block codey forever).
 */
export async function readPipedStdin(
  stdin: NodeJS.ReadStream,
  waitMs = 3000,
  notice: (msg: string) => void,
): Promise<string> {
  if (stdin.isTTY) return '';
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let started = false;
    const timer = setTimeout(() => {
      if (started) return;
      notice(`codey: no input arrived on stdin within ${waitMs / 1000} s; going on without it`);
      cleanup();
      stdin.destroy();
      resolve('');
    }, waitMs);
    const onData = (c: Buffer) => {
      started = true;
      chunks.push(c);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const cleanup = () => {
      clearTimeout(timer);
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onEnd);
      stdin.pause();
    };
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onEnd);
  });
}

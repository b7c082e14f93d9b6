import { vi } from 'vitest';
import { runTui } from '../../../src/tui/app/run';
import { FakeController } from '../fake-controller';
import { FakeStdin, FakeStdout } from '../fake-tty';
import { expectOwnProcess, mounted, tick } from '../helpers';

// A test file's first start loads Ink and the whole app (runTui imports them), which takes seconds on
// a busy machine while the other workers load theirs: the file's tests get twice the usual time.
vi.setConfig({ testTimeout: 40_000 });

/**
 * `runTui` on `c` with a fake terminal, once the app reads its input: `stdout` holds what it wrote,
 * `exited` is its exit status, `type` writes chunks one tick apart. It loads Ink only through
 * runTui, so a test file that sets CI before it renders live as in a terminal (see run.test.tsx).
 */
export async function startTui(c = new FakeController()) {
  expectOwnProcess('startTui');
  const stdin = new FakeStdin();
  const stdout = new FakeStdout();
  const exited = runTui(c, {
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStdout() as unknown as NodeJS.WriteStream,
    env: {},
    // Vitest's console cannot be patched.
    patchConsole: false,
  });
  await mounted(stdin);
  const type = async (...chunks: string[]) => {
    for (const chunk of chunks) {
      stdin.write(chunk);
      await tick();
    }
  };
  return { c, stdin, stdout, exited, type };
}

/** Streams a one-off terminal screen renders on (the setup wizard, the session picker); default the process's. */
export interface ScreenIo {
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

/**
 * Ink's render options for a one-off screen: only the streams given (an explicit `stdin: undefined`
 * would replace process.stdin in Ink), Ctrl+C handled by the screen itself, the console left alone.
 */
export function screenRenderOptions(io: ScreenIo) {
  return {
    ...(io.stdin ? { stdin: io.stdin } : {}),
    ...(io.stdout ? { stdout: io.stdout } : {}),
    ...(io.stderr ? { stderr: io.stderr } : {}),
    exitOnCtrlC: false,
    patchConsole: false,
  };
}

/**
 * The stream Ink draws on. Ink 6 redraws from a cleared screen, sending `ESC[2J ESC[3J` (the
 * person's scrollback gone) and then everything `<Static>` ever printed, whenever its previous frame
 * was at least `stdout.rows` tall (ink.js `onRender`); its cursor bookkeeping is one line off after
 * that, which erases the last printed line of the transcript. A frame can reach that height in many
 * ways (a list, a text field, a terminal made shorter), so Ink is given a stream without `rows`: it
 * then never takes that path. codey keeps the frame shorter than the terminal itself (App clamps it
 * to `rows - 1`) and reads the size from the real stream.
 */

/** `stdout` as Ink should see it: every property and method but `rows`, which reads as undefined. */
export function withoutRows(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
  return new Proxy(stdout, {
    get(target, prop) {
      if (prop === 'rows') return undefined;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

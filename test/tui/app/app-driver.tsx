import { render } from 'ink-testing-library';
import { expect } from 'vitest';
import { App, type AppProps } from '../../../src/tui/app/App';
import { FakeController } from '../fake-controller';
import { eventually, frame, mounted, tick } from '../helpers';

/**
 * The app on `c`, rendered by ink-testing-library (with `props`, e.g. a `screen`): `type` writes
 * chunks one tick apart, `out` is the last frame (ANSI stripped), `shows` waits until it contains
 * every text given.
 */
export async function startApp(c = new FakeController(), props: Omit<Partial<AppProps>, 'controller'> = {}) {
  const app = render(<App controller={c} home="/home/ann" {...props} />);
  await mounted(app.stdin);
  const type = async (...chunks: string[]) => {
    for (const chunk of chunks) {
      app.stdin.write(chunk);
      await tick();
    }
  };
  const out = () => frame(app.lastFrame);
  const shows = (...texts: string[]) =>
    eventually(() => {
      for (const t of texts) expect(out()).toContain(t);
    });
  return { c, app, type, out, shows };
}

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { startTmux, unwrapped } from '../support/tmux';
import { appInTmux, tmuxMissing } from '../support/app-in-tmux';
import { settingsDigest, trustFile } from '../../src/config/trust';

const app = appInTmux();

describe('the trust question for a project file', () => {
  it.skipIf(tmuxMissing)(
    'names what the file asks for; no keeps it ignored, yes applies it and is remembered',
    async () => {
      const rc = join(app.box.cwd, '.codeyrc.json');
      const data = { allow: ['bash(echo trusted)'] };
      await writeFile(rc, JSON.stringify(data));

      app.term = startTmux({ argv: ['node', BIN], cwd: app.box.cwd, env: app.box.env });
      let screen = await app.term.waitFor('the question', (s) => s.includes('Trust this file?'));
      expect(screen).toContain(`${rc} asks for settings that give this repository more than your own`);
      expect(screen).toContain('allow `bash(echo trusted)`: this one command would run without asking');
      app.term.type('n');
      app.term.keys('Enter');
      screen = await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
      // The line may wrap at the terminal's edge: compared without whitespace.
      expect(unwrapped(screen)).toContain(
        unwrapped(`codey: not trusted: ${rc}'s allow ignored for this session; codey asks again next time`),
      );
      app.term.kill();
      await expect(readFile(trustFile(app.box.env), 'utf8')).rejects.toThrow();

      app.term = startTmux({ argv: ['node', BIN], cwd: app.box.cwd, env: app.box.env });
      await app.term.waitFor('the question', (s) => s.includes('Trust this file?'));
      app.term.type('y');
      app.term.keys('Enter');
      await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
      expect(JSON.parse(await readFile(trustFile(app.box.env), 'utf8'))).toEqual({
        [rc]: settingsDigest(data),
      });
      // The trusted rule runs the command without asking.
      app.fake.enqueue(reply.toolUse('bash', { command: 'echo trusted' }), reply.text('Ran it.'));
      app.term.type('run it');
      app.term.keys('Enter');
      screen = await app.term.waitFor('the answer', (s) => s.includes('Ran it.'));
      expect(screen).not.toContain('Allow');
      app.term.kill();

      // Asked once: the next start goes straight to the app.
      app.term = startTmux({ argv: ['node', BIN], cwd: app.box.cwd, env: app.box.env });
      screen = await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
      expect(screen).not.toContain('Trust this file?');
    },
    60_000,
  );

  it.skipIf(tmuxMissing)(
    'a y and Enter typed while codey starts do not answer it: they wait for the input box',
    async () => {
      const rc = join(app.box.cwd, '.codeyrc.json');
      await writeFile(rc, JSON.stringify({ allow: ['bash(echo trusted)'] }));
      app.term = startTmux({ argv: ['node', BIN], cwd: app.box.cwd, env: app.box.env });
      // Typed at once, before the question can be drawn.
      app.term.type('y');
      app.term.keys('Enter');
      let screen = await app.term.waitFor('the question', (s) => s.includes('Trust this file?'));
      expect(unwrapped(screen)).toContain(
        unwrapped(
          'codey: what you typed while codey started is kept for the input box; it does not answer this',
        ),
      );
      // Still asking: nothing was trusted by the keys typed ahead.
      await expect(readFile(trustFile(app.box.env), 'utf8')).rejects.toThrow();
      app.term.type('n');
      app.term.keys('Enter');
      screen = await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
      expect(unwrapped(screen)).toContain(unwrapped(`codey: not trusted: ${rc}'s allow ignored`));
      await expect(readFile(trustFile(app.box.env), 'utf8')).rejects.toThrow();
    },
    60_000,
  );

  it.skipIf(tmuxMissing)(
    'shows every allow rule whole, a 200-character one wrapped, and what each would let happen',
    async () => {
      const long = `bash(npm run lint -- ${'--rule no-unused-vars '.repeat(8).trim()} | tee lint.log)`;
      expect(long.length).toBeGreaterThan(200);
      await writeFile(
        join(app.box.cwd, '.codeyrc.json'),
        JSON.stringify({ allow: [long, 'bash', 'web_fetch(domain:evil.example)'] }),
      );
      app.term = startTmux({ argv: ['node', BIN], cwd: app.box.cwd, env: app.box.env, width: 80 });
      const screen = await app.term.waitFor('the question', (s) => s.includes('Trust this file?'));
      expect(unwrapped(screen)).toContain(
        unwrapped(`allow \`${long}\`: this one command would run without asking`),
      );
      expect(screen).toContain('allow `bash`: every command would run without asking');
      expect(unwrapped(screen)).toContain(
        unwrapped(
          'allow `web_fetch(domain:evil.example)`: any page on evil.example or its subdomains would be fetched without asking',
        ),
      );
      expect(screen).not.toContain('…');
    },
    30_000,
  );
});

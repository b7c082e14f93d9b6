import { afterEach, describe, expect, it } from 'vitest';
import { askAboutCommand } from './ask-bash';

// A command too long for the prompt shows its first rows and its end, where `&& rm -rf …` would
// hide, with the count of what is between; blank lines cannot push the command off the prompt.

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function askAbout(columns: number, rows: number, command: string) {
  const asked = await askAboutCommand(columns, rows, command);
  stop = asked.t.stop;
  return asked;
}

/** The text without borders and white space: a wrapped command reads whole. */
const unwrapped = (text: string) => text.replace(/[│\s]+/g, '');

const steps = Array.from({ length: 30 }, (_, i) => `echo step${i}`).join(' && ');
/** About 540 characters; the wide screen gets it four times, then the end. */
const longCommand = (times: number) =>
  `echo start && ${Array.from({ length: times }, () => steps).join(' && ')} && rm -rf ~/important-data`;
const blanks = `echo "running the tests"${'\n'.repeat(21)}rm -rf ~/important`;

describe.each([
  [100, 30],
  [60, 20],
  [40, 15],
])('at %i×%i', (columns, rows) => {
  it('a long command shows its start and its end, with how much is between', async () => {
    const { prompt } = await askAbout(columns, rows, longCommand(columns === 100 ? 4 : 1));
    expect(prompt).toContain('echo start');
    expect(unwrapped(prompt)).toContain('rm-rf~/important-data');
    expect(prompt).toMatch(/… \+\d+ more lines, (press d to see all|d shows all)/);
    // The end comes after the count.
    expect(unwrapped(prompt).indexOf('moreline')).toBeLessThan(
      unwrapped(prompt).indexOf('rm-rf~/important-data'),
    );
    expect(prompt).toContain('❯ 1. Yes');
  });

  it('a run of blank lines takes one row, and the command after it shows', async () => {
    const { prompt, screen } = await askAbout(columns, rows, blanks);
    // The running call's one-line header says that more lines follow.
    if (rows > 15) expect(screen).toContain('Bash(echo "running the tests"… +21 lines)');
    // On the smallest screen the header holds the first line and the detail's one row the end.
    if (rows > 15) expect(prompt).toContain('⋮ 20 blank lines');
    expect(prompt).toContain('rm -rf ~/important');
    expect(prompt).toContain('echo "running the tests"');
    expect(prompt).toContain('❯ 1. Yes');
  });
});

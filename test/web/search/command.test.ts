import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runChild } from '../../../src/tools/exec';
import {
  commandSearcher,
  DEFAULT_COMMAND,
  findOnPath,
  isCommandAvailable,
  parseResultsJson,
} from '../../../src/web/search/command';
import { WebError, type Query } from '../../../src/web/types';

const BIN = resolve(__dirname, '../../fixtures/bin');
const NEVER = new AbortController().signal;

let scratch: string;
let tmp: string; // what os.tmpdir() returns during a test: every {out} dir is made here
let argvFile: string;
let savedTmp: string | undefined;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'codey-cmd-test-'));
  tmp = join(scratch, 'tmp');
  mkdirSync(tmp);
  argvFile = join(scratch, 'argv.json');
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
});

afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  rmSync(scratch, { recursive: true, force: true });
});

function env(mode: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}`,
    FAKE_DDGS_MODE: mode,
    FAKE_ARGV_FILE: argvFile,
    ...extra,
  };
}

function seen(): { argv: string[]; cwd: string } {
  return JSON.parse(readFileSync(argvFile, 'utf8')) as { argv: string[]; cwd: string };
}

function q(text: string, count = 3, site?: string): Query {
  return { text, count, site };
}

async function failure(p: Promise<unknown>): Promise<WebError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebError);
  return err as WebError;
}

/** The temp file and its directory are gone: nothing is left in the tmpdir the searcher used. */
function expectTempCleaned(): void {
  expect(readdirSync(tmp)).toEqual([]);
}

describe('command provider with the default ddgs template', () => {
  it('reads results from the {out} file and removes it', async () => {
    const s = commandSearcher({ run: runChild, argv: DEFAULT_COMMAND, env: env('file') });
    const results = await s.search(q('rust async traits', 3), NEVER);
    expect(s.name).toBe('ddgs');
    expect(results).toEqual([
      { title: 'Result 1 for rust async traits', url: 'https://example.com/1', snippet: 'Body 1' },
      { title: 'Result 2 for rust async traits', url: 'https://example.com/2', snippet: 'Body 2' },
      { title: 'Result 3 for rust async traits', url: 'https://example.com/3', snippet: 'Body 3' },
    ]);
    const { argv } = seen();
    expect(argv.slice(0, 6)).toEqual(['text', '-q', 'rust async traits', '-m', '3', '-o']);
    expect(argv[6]).toMatch(/\.json$/);
    expect(dirname(argv[6]).startsWith(tmp)).toBe(true);
    expect(existsSync(argv[6])).toBe(false);
    expect(existsSync(dirname(argv[6]))).toBe(false);
    expectTempCleaned();
  });

  it('appends site:HOST to the query argument', async () => {
    const s = commandSearcher({ run: runChild, argv: DEFAULT_COMMAND, env: env('file') });
    await s.search(q('asyncio timeout', 2, 'docs.python.org'), NEVER);
    expect(seen().argv[2]).toBe('asyncio timeout site:docs.python.org');
  });

  it('passes a query full of shell metacharacters as one argument, and no shell runs it', async () => {
    const evil = '"; rm -f ./nonexistent-file $(touch pwned) `touch pwned` | cat';
    const s = commandSearcher({ run: runChild, argv: DEFAULT_COMMAND, env: env('file') });
    const results = await s.search(q(evil, 1), NEVER);
    const { argv, cwd } = seen();
    expect(argv).toHaveLength(7);
    expect(argv[2]).toBe(evil);
    expect(results[0].title).toBe(`Result 1 for ${evil}`);
    expect(existsSync(join(cwd, 'pwned'))).toBe(false);
    expect(existsSync(join(process.cwd(), 'pwned'))).toBe(false);
    expectTempCleaned();
  });

  it('gives a query that starts with "-" a leading space so it cannot be read as an option', async () => {
    const s = commandSearcher({
      run: runChild,
      argv: ['ddgs', '{query}', '{count}'],
      env: env('stdout-array'),
    });
    await s.search(q('--output=/etc/passwd', 1), NEVER);
    expect(seen().argv[0]).toBe(' --output=/etc/passwd');
  });

  it('treats "No results found." on stdout (exit 0) as no results', async () => {
    const s = commandSearcher({ run: runChild, argv: DEFAULT_COMMAND, env: env('none') });
    await expect(s.search(q('zzqx nothing'), NEVER)).resolves.toEqual([]);
    expectTempCleaned();
  });

  it('treats the DDGSException form of "No results found." as no results', async () => {
    const s = commandSearcher({ run: runChild, argv: DEFAULT_COMMAND, env: env('none-exception') });
    await expect(s.search(q('zzqx nothing'), NEVER)).resolves.toEqual([]);
  });

  it('reports a usage error (exit 2) with the line that says what was wrong', async () => {
    const s = commandSearcher({ run: runChild, argv: DEFAULT_COMMAND, env: env('usage') });
    const err = await failure(s.search(q('x'), NEVER));
    expect(err.kind).toBe('provider');
    expect(err.message).toBe('ddgs exited with code 2: Error: No such option: -x');
    expectTempCleaned();
  });

  it('reports exit 0 with unparseable output by quoting its first line', async () => {
    const s = commandSearcher({ run: runChild, argv: DEFAULT_COMMAND, env: env('garbage') });
    const err = await failure(s.search(q('x'), NEVER));
    expect(err.kind).toBe('provider');
    expect(err.message).toBe(
      'ddgs returned no results but said: RatelimitException: https://html.duckduckgo.com/html 202 Ratelimit',
    );
    expectTempCleaned();
  });

  it('reports a results file that is not JSON', async () => {
    const s = commandSearcher({ run: runChild, argv: DEFAULT_COMMAND, env: env('file-garbage') });
    const err = await failure(s.search(q('x'), NEVER));
    expect(err.message).toBe('ddgs wrote a results file that is not JSON: title,href,body');
    expectTempCleaned();
  });

  it('reports a command that printed nothing and wrote no {out} file', async () => {
    const s = commandSearcher({ run: runChild, argv: DEFAULT_COMMAND, env: env('silent') });
    const err = await failure(s.search(q('x'), NEVER));
    expect(err.message).toMatch(/^ddgs wrote no results file and printed nothing/);
    expectTempCleaned();
  });

  it('says how to install ddgs when it is not on PATH', async () => {
    const empty = join(scratch, 'empty-bin');
    mkdirSync(empty);
    const s = commandSearcher({ run: runChild, argv: DEFAULT_COMMAND, env: { PATH: empty } });
    const err = await failure(s.search(q('x'), NEVER));
    expect(err.kind).toBe('config');
    expect(err.message).toBe(
      'ddgs is not installed (not found on PATH); install it with `pipx install ddgs` or set web_command',
    );
    expectTempCleaned();
  });

  it('names any other missing command', async () => {
    const s = commandSearcher({ run: runChild, argv: ['codey-no-such-search', '{query}'], env: env('file') });
    const err = await failure(s.search(q('x'), NEVER));
    expect(err.message).toBe(
      'codey-no-such-search is not installed (not found on PATH); install it or set web_command to a search command that is installed',
    );
  });

  it('stops a command that hangs past the timeout and removes the temp file it wrote', async () => {
    // 3 s: the fake ddgs is a Node script, and on a loaded 2-core machine it may take over a second
    // to start and record its arguments.
    const s = commandSearcher({ run: runChild, argv: DEFAULT_COMMAND, env: env('hang'), timeoutMs: 3000 });
    const err = await failure(s.search(q('x'), NEVER));
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe('ddgs did not finish within 3 s and was stopped; try again later');
    expect(seen().argv[6]).toMatch(/\.json$/);
    expectTempCleaned();
  });

  it('stops the command when the signal fires and removes the temp file', async () => {
    const ac = new AbortController();
    const s = commandSearcher({ run: runChild, argv: DEFAULT_COMMAND, env: env('hang') });
    const pending = failure(s.search(q('x'), ac.signal));
    while (!existsSync(argvFile)) await sleep(10);
    ac.abort();
    const err = await pending;
    expect(err.kind).toBe('aborted');
    expectTempCleaned();
  });
});

describe('command provider with commands that print JSON on stdout', () => {
  it('reads a JSON array (url, description fields; HTML stripped) and keeps at most count', async () => {
    const s = commandSearcher({ run: runChild, argv: ['ddgs', '{query}', '7'], env: env('stdout-array') });
    const results = await s.search(q('x', 2), NEVER);
    expect(results).toEqual([
      { title: 'A1', url: 'https://a.example/1', snippet: 'D1' },
      { title: 'A2', url: 'https://a.example/2', snippet: 'D2' },
    ]);
    expect(seen().argv).toEqual(['x', '7']);
  });

  it('reads JSON Lines (link, content fields)', async () => {
    const s = commandSearcher({
      run: runChild,
      argv: ['ddgs', '{query}', '{count}'],
      env: env('stdout-lines'),
    });
    const results = await s.search(q('x', 2), NEVER);
    expect(results).toEqual([
      { title: 'L1', url: 'https://l.example/1', snippet: 'C1' },
      { title: 'L2', url: 'https://l.example/2', snippet: 'C2' },
    ]);
    expect(seen().argv).toEqual(['x', '2']);
  });

  it('substitutes placeholders only as whole arguments', async () => {
    const s = commandSearcher({
      run: runChild,
      argv: ['ddgs', '{query}', '{count}', 'q={query}', '{count}x'],
      env: env('stdout-lines'),
    });
    await s.search(q('hello', 4), NEVER);
    expect(seen().argv).toEqual(['hello', '4', 'q={query}', '{count}x']);
  });

  it('treats empty stdout as no results when there is no {out} file to expect', async () => {
    const s = commandSearcher({ run: runChild, argv: ['ddgs', '{query}'], env: env('silent') });
    await expect(s.search(q('x'), NEVER)).resolves.toEqual([]);
  });
});

describe('command template checks', () => {
  it('refuses an empty template and one without {query}', () => {
    expect(() => commandSearcher({ run: runChild, argv: [] })).toThrow(/web_command is empty/);
    expect(() => commandSearcher({ run: runChild, argv: ['ddgs', 'text'] })).toThrow(
      /no "\{query\}" element/,
    );
  });
});

describe('parseResultsJson', () => {
  it('reads an array, a {results} object, JSON Lines; refuses text', () => {
    expect(parseResultsJson('[{"a":1}]')).toEqual([{ a: 1 }]);
    expect(parseResultsJson('{"results":[{"a":1},{"a":2}]}')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(parseResultsJson('{"a":1}\n\n{"a":2}\n')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(parseResultsJson('No results found.')).toBeUndefined();
    expect(parseResultsJson('{"a":1}\nnot json')).toBeUndefined();
  });
});

describe('findOnPath / isCommandAvailable', () => {
  it('finds an executable on the given PATH without running it', async () => {
    const path = `${join(scratch, 'nope')}${delimiter}${BIN}`;
    expect(findOnPath('ddgs', { PATH: path })).toBe(join(BIN, 'ddgs'));
    await expect(isCommandAvailable('ddgs', { PATH: path })).resolves.toBe(true);
    await expect(isCommandAvailable('ddgs', { PATH: scratch })).resolves.toBe(false);
    await expect(isCommandAvailable('ddgs', {})).resolves.toBe(false);
    expect(existsSync(argvFile)).toBe(false);
  });

  it('refuses a file that is not executable, and checks paths as given', async () => {
    const plain = join(scratch, 'ddgs');
    writeFileSync(plain, '#!/bin/sh\n');
    chmodSync(plain, 0o644);
    await expect(isCommandAvailable('ddgs', { PATH: scratch })).resolves.toBe(false);
    await expect(isCommandAvailable(plain, {})).resolves.toBe(false);
    await expect(isCommandAvailable(join(BIN, 'ddgs'), {})).resolves.toBe(true);
  });
});

describe('command provider: the whole process group ends with the search', () => {
  /** A wrapper script whose child hangs (and holds stdout open); the child's pid goes to a file. */
  function hangingWrapper(): { argv: string[]; pidFile: string } {
    const pidFile = join(scratch, 'child.pid');
    const script = join(scratch, 'wrapper.sh');
    writeFileSync(script, `#!/bin/sh\nsleep 300 &\necho $! > "${pidFile}"\nwait\n`);
    chmodSync(script, 0o755);
    return { argv: [script, '{query}'], pidFile };
  }

  /** Whether a process runs (a zombie waiting to be reaped counts as gone). */
  function running(pid: number): boolean {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  }

  async function childPid(pidFile: string): Promise<number> {
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await sleep(10);
    return Number(readFileSync(pidFile, 'utf8').trim());
  }

  /** The killed child may take a moment to be reaped by init; poll for it (no time assertion). */
  async function gone(pid: number): Promise<boolean> {
    for (let i = 0; i < 200 && running(pid); i++) await sleep(10);
    return !running(pid);
  }

  let leftover: number | undefined;
  afterEach(() => {
    if (leftover !== undefined && running(leftover)) process.kill(leftover, 'SIGKILL');
    leftover = undefined;
  });

  it('kills a hanging grandchild at the timeout, and the call ends then', async () => {
    const { argv, pidFile } = hangingWrapper();
    const s = commandSearcher({ run: runChild, argv, env: env('unused'), timeoutMs: 1500 });
    const pending = failure(s.search(q('x'), NEVER));
    leftover = await childPid(pidFile);
    const err = await pending;
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe('wrapper.sh did not finish within 2 s and was stopped; try again later');
    expect(await gone(leftover)).toBe(true);
  });

  it('kills a hanging grandchild on abort, and the call ends then', async () => {
    const { argv, pidFile } = hangingWrapper();
    const ac = new AbortController();
    const s = commandSearcher({ run: runChild, argv, env: env('unused') });
    const pending = failure(s.search(q('x'), ac.signal));
    leftover = await childPid(pidFile);
    ac.abort();
    const err = await pending;
    expect(err.kind).toBe('aborted');
    expect(await gone(leftover)).toBe(true);
  });

  it('ends what the command left running in the background once it exited', async () => {
    const pidFile = join(scratch, 'bg.pid');
    const script = join(scratch, 'bg.sh');
    writeFileSync(script, `#!/bin/sh\nsleep 300 &\necho $! > "${pidFile}"\necho '[]'\n`);
    chmodSync(script, 0o755);
    const s = commandSearcher({ run: runChild, argv: [script, '{query}'], env: env('unused') });
    await expect(s.search(q('x'), NEVER)).resolves.toEqual([]);
    leftover = await childPid(pidFile);
    expect(await gone(leftover)).toBe(true);
  });
});

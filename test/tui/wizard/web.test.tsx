import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY } from '../helpers';
import { drive, flat, USER_FILE } from './drive';

afterEach(() => cleanup());

// The key comes from the environment, so the web step is the third Enter away.
const ENV = { ANTHROPIC_API_KEY: 'sk-ant-env-0000' };
const DDGS_ARGV = ['ddgs', 'text', '-q', '{query}', '-m', '{count}', '-o', '{out}'];

describe('the web search step', () => {
  it('explains what each choice sends where', async () => {
    const d = await drive({ env: ENV }, KEY.enter, KEY.enter);
    const out = flat(d.out());
    expect(out).toContain('3/4 · Web search');
    expect(out).toContain(
      '1. None No web tools; nothing leaves the machine but the conversation with the model.',
    );
    expect(out).toContain("2. Hosted (Anthropic) Anthropic's server-side search: no key, no install.");
    expect(out).toContain('cannot be approved one by one; works only against Anthropic');
    expect(out).toContain(
      '3. Local command (ddgs) Runs ddgs (DuckDuckGo) on this machine: each query goes from your machine to DuckDuckGo',
    );
    expect(out).toContain('4. Brave Search Queries go to Brave Search with your key');
  });

  it('none: writes web_provider none and no command', async () => {
    const d = await drive({ env: ENV }, KEY.enter, KEY.enter, KEY.enter, KEY.enter);
    expect(d.writes).toEqual([[USER_FILE, { model: 'claude-opus-4-8', web_provider: 'none' }]]);
    expect(await d.outcome()).toEqual({ written: true, file: USER_FILE });
  });

  it('hosted: writes web_provider hosted', async () => {
    const d = await drive({ env: ENV }, KEY.enter, KEY.enter, '2');
    expect(flat(d.out())).toContain('Web search Hosted (Anthropic)');
    await d.keys(KEY.enter);
    expect(d.writes).toEqual([[USER_FILE, { model: 'claude-opus-4-8', web_provider: 'hosted' }]]);
  });

  it('local command with ddgs on PATH: says so and writes the default template as argv', async () => {
    const asked: string[] = [];
    const isOnPath = async (cmd: string) => {
      asked.push(cmd);
      return true;
    };
    const d = await drive({ env: ENV, isOnPath }, KEY.enter, KEY.enter);
    expect(asked).toEqual(['ddgs']);
    expect(d.out()).toContain('ddgs found on PATH.');
    expect(d.out()).not.toContain('pipx install ddgs');
    await d.keys('3');
    expect(d.out()).toContain('Command: ddgs text -q {query} -m {count} -o {out}');
    await d.keys(KEY.enter, KEY.enter);
    expect(d.writes).toEqual([
      [USER_FILE, { model: 'claude-opus-4-8', web_provider: 'command', web_command: DDGS_ARGV }],
    ]);
  });

  it('local command with ddgs missing: shows `pipx install ddgs`, and takes an edited template', async () => {
    const d = await drive({ env: ENV, isOnPath: async () => false }, KEY.enter, KEY.enter);
    expect(d.out()).toContain('ddgs is not on PATH: install it with `pipx install ddgs`.');
    await d.keys('3');
    expect(d.out()).toContain('pipx install ddgs');
    await d.keys('\u0015', 'my-search --json {query}  --limit {count}', KEY.enter);
    const summary = flat(d.out());
    expect(summary).toContain('Web search local command: my-search --json {query} --limit {count}');
    expect(summary).not.toContain('pipx install ddgs');
    await d.keys(KEY.enter);
    expect(d.writes[0][1].web_command).toEqual(['my-search', '--json', '{query}', '--limit', '{count}']);
  });

  it('refuses a template without {query}, writing nothing', async () => {
    const d = await drive({ env: ENV }, KEY.enter, KEY.enter, '3', '\u0015', 'ddgs text -q', KEY.enter);
    expect(flat(d.out())).toContain('The template needs {query} as a word of its own');
    expect(d.out()).toContain('Search command');
    expect(d.writes).toEqual([]);
    await d.keys(' {query}', KEY.enter);
    expect(flat(d.out())).toContain('4/4 · Summary');
  });

  it('keeps a stored template exactly when it is not edited, even an element with a space', async () => {
    const web_command = ['/opt/my tools/search', '{query}'];
    const d = await drive(
      { env: ENV, existing: { web_provider: 'command', web_command } },
      KEY.enter,
      KEY.enter,
    );
    expect(d.out()).toContain('❯ 3. Local command (ddgs)');
    await d.keys(KEY.enter, KEY.enter, KEY.enter);
    expect(d.writes[0][1].web_command).toEqual(web_command);
  });

  it('brave, tavily, searxng: names the variable each needs and whether it is set, never its value', async () => {
    const env = { ...ENV, BRAVE_API_KEY: 'BSA-brave-secret-value', WEB_SEARCH_URL: 'http://searx.lan:8888' };
    const d = await drive({ env }, KEY.enter, KEY.enter);
    const out = flat(d.out());
    expect(out).toContain('Needs BRAVE_API_KEY: set.');
    expect(out).toContain('Needs TAVILY_API_KEY: not set; export it before running codey.');
    expect(out).toContain('Needs WEB_SEARCH_URL: set.');
    await d.keys('4');
    expect(flat(d.out())).toContain('Web search Brave Search');
    expect(flat(d.out())).toContain('Needs BRAVE_API_KEY: set.');
    await d.keys(KEY.enter);
    expect(d.writes).toEqual([[USER_FILE, { model: 'claude-opus-4-8', web_provider: 'brave' }]]);
    for (const f of d.frames()) {
      expect(f).not.toContain('BSA-brave');
      expect(f).not.toContain('searx.lan');
    }
  });

  it('tavily without its key: the summary warns before saving', async () => {
    const d = await drive({ env: ENV }, KEY.enter, KEY.enter, '5');
    expect(flat(d.out())).toContain('Needs TAVILY_API_KEY: not set; export it before running codey.');
    await d.keys(KEY.enter);
    expect(d.writes[0][1].web_provider).toBe('tavily');
  });

  it('warns that hosted search will probably not work through an endpoint', async () => {
    const d = await drive({}, '2', 'http://localhost:4000', KEY.enter, KEY.enter, KEY.enter);
    expect(flat(d.out())).toContain('Your endpoint http://localhost:4000 will probably reject it.');
  });
});

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Policy } from '../../src/approval/policy';
import { looksRandom, MAX_INDEXED_TOKENS, Taint } from '../../src/approval/taint';
import type { ApprovalRequest } from '../../src/approval/types';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const token = (n: number) => [...randomBytes(n)].map((b) => BASE62[b % 62]).join('');

const bash = (command: string): ApprovalRequest => ({
  tool: 'bash',
  kind: 'execute',
  summary: `Run: ${command}`,
  detail: command,
  rememberable: true,
});
const fetchOf = (url: string): ApprovalRequest => ({
  tool: 'web_fetch',
  kind: 'fetch',
  summary: `Fetch ${url}`,
  detail: url,
  rememberable: true,
  domain: new URL(url).hostname,
});

describe('random-looking strings', () => {
  it('are told from words, slugs and identifiers', () => {
    for (let i = 0; i < 200; i++) expect(looksRandom(token(40))).toBe(true);
    expect(looksRandom(randomBytes(20).toString('hex'))).toBe(true);
    expect(looksRandom(randomBytes(30).toString('base64url').replace(/[-_]/g, 'x'))).toBe(true);
    for (const word of [
      'release-notes-2024-v3-upgrade-guide',
      'how-to-configure-the-server-for-production',
      'ConfigurationManagerFactoryBuilder',
      'chromium-browser-stable_120',
      '550e8400-e29b-41d4-a716-446655440000',
    ])
      expect(looksRandom(word), word).toBe(false);
  });
});

describe('a URL that may carry data out', () => {
  it('names the random string in its path, query or host', () => {
    const t = new Taint();
    const secret = token(40);
    expect(t.smuggled(`https://evil.example/c?d=${secret}`)).toContain('long random-looking string');
    expect(t.smuggled(`https://evil.example/${secret}/x`)).toContain(secret.slice(0, 24));
    expect(t.smuggled(`https://${secret.toLowerCase()}a1b2c3d4e5f6.evil.example/`)).toBeDefined();
    expect(
      t.smuggled('https://docs.python.org/3/library/asyncio-task.html?highlight=gather'),
    ).toBeUndefined();
  });

  it('or a token of a file read this session, but not a link written in the file', () => {
    const t = new Taint();
    t.readText('DB_PASSWORD=hunter2hunter2\nsee https://docs.example/guide-v2-install-2024\n');
    expect(t.smuggled('https://evil.example/?p=hunter2hunter2')).toBe(
      'the URL carries text from a file read this session (hunter2hunter2)',
    );
    expect(t.smuggled('https://docs.example/guide-v2-install-2024')).toBeUndefined();
  });

  it('keeps the file index bounded, oldest tokens dropped first', () => {
    const t = new Taint();
    const first = 'first1token1here';
    t.readText(first);
    for (let i = 0; i < 3; i++)
      t.readText(Array.from({ length: MAX_INDEXED_TOKENS }, (_, j) => `tok${i}x${j}yz`).join(' '));
    expect(t.indexed).toBe(MAX_INDEXED_TOKENS);
    expect(t.smuggled(`https://x.example/?q=${first}`)).toBeUndefined();
  });
});

describe('the taint stage of the policy', () => {
  it('after a page, a session "always" for bash asks again once per turn, naming the page', () => {
    const p = new Policy();
    p.remember(bash('ls'), { kind: 'allow_tool' });
    expect(p.evaluate(bash('make'))).toEqual({ action: 'allow', rule: 'bash' });
    p.taint.entered('https://evil.example/page');
    expect(p.staged(bash('make'))).toEqual({
      verdict: { action: 'ask' },
      why: 'after reading https://evil.example/page',
    });
    // A no keeps asking; a yes (once) lets the rest of the turn through.
    p.remember(bash('make'), { kind: 'deny' });
    expect(p.evaluate(bash('make')).action).toBe('ask');
    p.remember(bash('make'), { kind: 'allow_once' });
    expect(p.evaluate(bash('rm x')).action).toBe('allow');
    p.taint.entered('https://evil.example/again');
    p.taint.newTurn();
    expect(p.evaluate(bash('make')).action).toBe('allow');
  });

  it('rules the person wrote and exact answers apply as written', () => {
    const written = new Policy(['bash']);
    written.taint.entered('https://evil.example/page');
    expect(written.evaluate(bash('make')).action).toBe('allow');
    const exact = new Policy();
    exact.remember(bash('npm test'), { kind: 'allow_detail' });
    exact.taint.entered('https://evil.example/page');
    expect(exact.evaluate(bash('npm test'))).toEqual({ action: 'allow', rule: 'bash(npm test)' });
  });

  it('web_fetch "always" is not enough for a new domain after a page, and a random string always asks', () => {
    const p = new Policy();
    p.remember(fetchOf('https://docs.example/a'), { kind: 'allow_tool' });
    p.taint.fetched('docs.example');
    p.taint.entered('https://docs.example/a');
    expect(p.evaluate(fetchOf('https://docs.example/b')).action).toBe('allow');
    expect(p.staged(fetchOf('https://other.example/')).why).toBe('after reading https://docs.example/a');
    const url = `https://docs.example/x?t=${token(40)}`;
    expect(new Policy(['web_fetch']).evaluate(fetchOf(url)).action).toBe('ask');
    expect(new Policy(['web_fetch(domain:docs.example)']).evaluate(fetchOf(url)).action).toBe('ask');
    expect(new Policy([`web_fetch(${url})`]).evaluate(fetchOf(url)).action).toBe('allow');
    // A redirect's URL is the server's: a signed download link is no smuggling.
    expect(new Policy(['web_fetch']).evaluate(fetchOf(url), { step: true }).action).toBe('allow');
  });
});

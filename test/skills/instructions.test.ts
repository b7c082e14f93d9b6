import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assembleInstructions,
  findInstructionFiles,
  loadProjectInstructions,
  MAX_INSTRUCTIONS_BYTES,
} from '../../src/skills/instructions';
import { removeDir, tempDir, writeTree } from '../tools/file-tools-kit';

let base: string;
let repo: string;
let ws: string;
let env: { HOME: string; XDG_CONFIG_HOME: string };
beforeEach(async () => {
  base = await tempDir('codey-agents-');
  repo = path.join(base, 'repo');
  ws = path.join(repo, 'packages', 'web');
  env = { HOME: path.join(base, 'home'), XDG_CONFIG_HOME: path.join(base, 'xdg') };
  await mkdir(ws, { recursive: true });
});
afterEach(() => removeDir(base));

const INTRO =
  "The files below hold instructions for working here: the person's own first, then the repository's " +
  'from its root down to the workspace, each followed by the files it imports. Follow them. Where two ' +
  'disagree, the later one wins: it is nearer to the work.';

describe('findInstructionFiles', () => {
  it("reads the person's files first, then root to leaf, CLAUDE.md and AGENTS.md both", async () => {
    await writeTree(base, {
      'xdg/codey/AGENTS.md': 'Answer in British English.\n',
      'home/.config/codey/AGENTS.md': 'not read: XDG_CONFIG_HOME is set',
      'repo/AGENTS.md': 'Run npm test before committing.\n',
      'repo/CLAUDE.md': 'Claude Code reads this one too.',
      'repo/packages/CLAUDE.md': 'Packages are published from CI only.\n',
      'repo/packages/web/AGENTS.md': 'This package uses Preact, not React.\n',
      'AGENTS.md': 'not read: above the git root',
      'repo/packages/web/src/AGENTS.md': 'not read: below the workspace',
    });
    const { files } = await findInstructionFiles({ workspace: ws, gitRoot: repo, env });
    expect(files.map((f) => path.relative(base, f.path))).toEqual([
      'xdg/codey/AGENTS.md',
      'repo/CLAUDE.md',
      'repo/AGENTS.md',
      'repo/packages/CLAUDE.md',
      'repo/packages/web/AGENTS.md',
    ]);
  });

  it('reads only the workspace folder without a git root, and nothing when there are no files', async () => {
    await writeTree(base, { 'repo/AGENTS.md': 'root', 'repo/packages/web/CLAUDE.md': 'leaf' });
    const { files } = await findInstructionFiles({ workspace: ws, env });
    expect(files.map((f) => path.relative(base, f.path))).toEqual(['repo/packages/web/CLAUDE.md']);
    expect(
      (await findInstructionFiles({ workspace: path.join(base, 'repo', 'packages'), env })).files,
    ).toEqual([]);
  });
});

describe('loadProjectInstructions', () => {
  it('puts every file under one heading with its path, in order, and says the nearer wins', async () => {
    await writeTree(base, {
      'xdg/codey/AGENTS.md': 'Answer in British English.\n',
      'repo/AGENTS.md': '# Repo\r\n\r\nRun npm test before committing.\r\n',
      'repo/packages/web/CLAUDE.md': '\ufeffThis package uses Preact, not React.\n\n\n',
      'repo/packages/AGENTS.md': '   \n',
    });
    const r = await loadProjectInstructions({ workspace: ws, gitRoot: repo, env });
    expect(r.text).toBe(
      [
        '# Project instructions',
        '',
        INTRO,
        '',
        `## ${base}/xdg/codey/AGENTS.md`,
        '',
        'Answer in British English.',
        '',
        `## ${repo}/AGENTS.md`,
        '',
        '# Repo',
        '',
        'Run npm test before committing.',
        '',
        `## ${ws}/CLAUDE.md`,
        '',
        'This package uses Preact, not React.',
      ].join('\n'),
    );
    expect(r.files).toEqual([`${base}/xdg/codey/AGENTS.md`, `${repo}/AGENTS.md`, `${ws}/CLAUDE.md`]);
    expect(r.notices).toEqual([]);
    // The same files give the same bytes (the cached prompt prefix depends on it).
    expect((await loadProjectInstructions({ workspace: ws, gitRoot: repo, env })).text).toBe(r.text);
  });

  it('gives empty text and no notice when there is nothing to read', async () => {
    expect(await loadProjectInstructions({ workspace: ws, gitRoot: repo, env })).toEqual({
      text: '',
      files: [],
      notices: [],
      skipped: [],
      seen: [],
      pathRules: [],
    });
  });
});

describe('assembleInstructions: the 64 KiB budget', () => {
  const numbered = (n: number, width = 99) =>
    Array.from({ length: n }, (_, i) => `${String(i + 1).padStart(4, '0')} ${'y'.repeat(width - 5)}`).join(
      '\n',
    );

  it('keeps a file that fits whole, with no notice', () => {
    const r = assembleInstructions([{ path: '/r/AGENTS.md', content: numbered(300) }]);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(MAX_INSTRUCTIONS_BYTES);
    expect(r.notices).toEqual([]);
    expect(r.text.endsWith(numbered(300).split('\n')[299])).toBe(true);
  });

  it('cuts the file that passes the cap at a line, names the files left out, and says so in a notice', () => {
    const r = assembleInstructions(
      [
        { path: '/r/AGENTS.md', content: numbered(100) },
        { path: '/r/a/AGENTS.md', content: numbered(800) },
        { path: '/r/a/b/CLAUDE.md', content: 'never reached' },
      ],
      (p) => p.replace('/r/', ''),
    );
    const size = Buffer.byteLength(r.text);
    expect(size).toBeLessThanOrEqual(MAX_INSTRUCTIONS_BYTES);
    expect(size).toBeGreaterThan(MAX_INSTRUCTIONS_BYTES - 200);
    const lines = r.text.split('\n');
    const marker = lines.findIndex((l) => l.startsWith('[… cut here'));
    const lastKept = lines[marker - 1];
    expect(lastKept).toMatch(/^\d{4} y+$/); // a whole line, never part of one
    expect(lastKept).toHaveLength(99);
    const kept = Number(lastKept.slice(0, 4));
    expect(lines[marker]).toBe(
      `[… cut here: the rest of this file is over codey's 64 KiB limit for instructions; read it with read_file from line ${kept + 1}]`,
    );
    expect(r.text).not.toContain('never reached');
    expect(
      r.text.endsWith(
        "(Left out, over codey's 64 KiB limit for instructions: /r/a/b/CLAUDE.md. Read them with read_file when they matter.)",
      ),
    ).toBe(true);
    expect(r.files).toEqual(['/r/AGENTS.md', '/r/a/AGENTS.md']);
    expect(r.notices).toEqual([
      `codey: project instructions are over 64 KiB: a/AGENTS.md cut after line ${kept} of 800; left out a/b/CLAUDE.md`,
    ]);
  });

  it('counts bytes of UTF-8, not characters', () => {
    const r = assembleInstructions([
      { path: '/r/AGENTS.md', content: 'é'.repeat(99).concat('\n').repeat(600) },
    ]);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(MAX_INSTRUCTIONS_BYTES);
    expect(r.notices[0]).toMatch(
      /^codey: project instructions are over 64 KiB: \/r\/AGENTS\.md cut after line 3\d\d of 600$/,
    );
  });

  it('leaves out a file none of whose lines fits, naming it', () => {
    const r = assembleInstructions([
      { path: '/r/AGENTS.md', content: numbered(640) },
      { path: '/r/a/AGENTS.md', content: 'z'.repeat(80_000) },
    ]);
    expect(r.files).toEqual(['/r/AGENTS.md']);
    expect(r.notices).toEqual(['codey: project instructions are over 64 KiB: left out /r/a/AGENTS.md']);
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(MAX_INSTRUCTIONS_BYTES);
  });
});

describe('instructions as Claude Code reads them', () => {
  it('loads CLAUDE.md, .claude/CLAUDE.md, AGENTS.md and CLAUDE.local.md, follows @imports (chain, cycle cut) and rules without paths', async () => {
    await writeTree(base, {
      'home/.claude/CLAUDE.md': 'Mine. @~/notes/style.md\n',
      'home/notes/style.md': 'Short sentences.\n',
      'repo/CLAUDE.md': [
        '# Team',
        'See @docs/a.md for the build.',
        'Not an import: `@docs/never.md`, nor in a fence:',
        '```',
        '@docs/never.md',
        '```',
        '@../outside.md',
        '',
      ].join('\n'),
      'repo/docs/a.md': 'A: build with make. @b.md\n',
      'repo/docs/b.md': 'B: then test. @a.md @../CLAUDE.md\n',
      'repo/docs/never.md': 'NEVER READ\n',
      'outside.md': 'OUTSIDE THE REPO\n',
      'repo/AGENTS.md': 'Agents file.\n',
      'repo/.claude/CLAUDE.md': 'Dot-claude file.\n',
      'repo/CLAUDE.local.md': 'My local notes.\n',
      'repo/.claude/rules/testing.md': 'Always run the tests.\n',
      'repo/.claude/rules/api/ts.md': '---\npaths:\n  - "src/api/**/*.ts"\n---\nAPI rule.\n',
    });
    const r = await findInstructionFiles({ workspace: repo, gitRoot: repo, env }, (f) =>
      path.relative(base, f),
    );
    expect(r.files.map((f) => path.relative(base, f.path))).toEqual([
      'home/.claude/CLAUDE.md',
      'home/notes/style.md',
      'repo/CLAUDE.md',
      'repo/docs/a.md',
      'repo/docs/b.md',
      'repo/.claude/CLAUDE.md',
      'repo/AGENTS.md',
      'repo/CLAUDE.local.md',
      'repo/.claude/rules/testing.md',
    ]);
    expect(JSON.stringify(r.files)).not.toMatch(/NEVER READ|OUTSIDE THE REPO|API rule/);
    expect(r.skipped).toEqual(['outside.md (an import outside the repository)']);
    expect(r.pathRules).toEqual([
      { file: path.join(repo, '.claude/rules/api/ts.md'), paths: ['src/api/**/*.ts'] },
    ]);
  });

  it('reads a file reached through a link once', async () => {
    await writeTree(base, { 'repo/AGENTS.md': 'One file.\n' });
    const { symlink } = await import('node:fs/promises');
    await symlink('AGENTS.md', path.join(repo, 'CLAUDE.md'));
    const r = await findInstructionFiles({ workspace: repo, gitRoot: repo, env });
    expect(r.files.map((f) => f.content)).toEqual(['One file.\n']);
  });
});

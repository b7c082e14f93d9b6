import { realpath, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadProjectInstructions } from '../../src/skills/instructions';
import { lateInstructions } from '../../src/skills/late-instructions';
import { removeDir, tempDir, writeTree } from '../tools/file-tools-kit';

let base: string;
let repo: string;
const env = () => ({ HOME: path.join(base, 'home') });
beforeEach(async () => {
  base = await realpath(await tempDir('codey-late-'));
  repo = path.join(base, 'repo');
});
afterEach(() => removeDir(base));

/** The late source for a workspace at `repo` (the git root), built as the session builds it. */
async function sourceFor(workspace = repo) {
  const places = { workspace, gitRoot: repo, env: env() };
  return lateInstructions(places, await loadProjectInstructions(places));
}

const none = () => false;
const rel = (files: { path: string }[]) => files.map((f) => path.relative(repo, f.path));

describe('lateInstructions', () => {
  it("brings each folder's instructions from the root down to the file's folder, outermost first, with their imports", async () => {
    await writeTree(repo, {
      'CLAUDE.md': 'Root: read at start.\n',
      'api/CLAUDE.md': 'API rules. @docs/style.md\n',
      'api/docs/style.md': 'Style for the API.\n',
      'api/v2/AGENTS.md': 'V2 rules.\n',
      'api/v2/CLAUDE.local.md': 'My local V2 notes.\n',
      'api/v2/handler.ts': 'x',
      'web/CLAUDE.md': 'Not on the way.\n',
    });
    const src = await sourceFor();
    const r = await src.find(path.join(repo, 'api/v2/handler.ts'), new Set(), none);
    expect(rel(r.files)).toEqual([
      'api/CLAUDE.md',
      'api/docs/style.md',
      'api/v2/AGENTS.md',
      'api/v2/CLAUDE.local.md',
    ]);
    expect(r.files[0]).toMatchObject({
      text: 'API rules. @docs/style.md',
      covers: `files under ${path.join(repo, 'api')}`,
    });
    expect(r.files[1].covers).toContain('imported through');
    expect(r.notices).toEqual([]);
    // What the conversation holds does not come again.
    const again = await src.find(
      path.join(repo, 'api/v2/handler.ts'),
      new Set(r.files.map((f) => f.path)),
      none,
    );
    expect(again.files).toEqual([]);
  });

  it('a paths: rule comes for a matching file only, without its frontmatter; always-on rules were read at start', async () => {
    await writeTree(repo, {
      '.claude/rules/always.md': 'Always.\n',
      '.claude/rules/ts.md': '---\npaths: ["./src/**/*.ts", "lib/*.js"]\n---\nTS rule.\n',
      'src/deep/a.ts': 'x',
      'src/a.md': 'x',
    });
    const src = await sourceFor();
    expect((await src.find(path.join(repo, 'src/a.md'), new Set(), none)).files).toEqual([]);
    const r = await src.find(path.join(repo, 'src/deep/a.ts'), new Set(), none);
    expect(r.files).toEqual([
      {
        path: path.join(repo, '.claude/rules/ts.md'),
        text: 'TS rule.',
        covers: 'files matching ./src/**/*.ts, lib/*.js',
      },
    ]);
  });

  it("after /worktree, the worktree's own files come, matched from its root; what started in the prompt does not come again", async () => {
    const tree = {
      'CLAUDE.md': 'Root: read at start.\n',
      'api/CLAUDE.md': 'API rules.\n',
      '.claude/rules/ts.md': '---\npaths: ["src/**/*.ts"]\n---\nTS rule.\n',
    };
    const wt = path.join(repo, '.codey/worktrees/fix');
    await writeTree(repo, { ...tree, '.git/HEAD': 'ref: refs/heads/main\n' });
    await writeTree(wt, {
      ...tree,
      'api/CLAUDE.md': 'API rules on the branch.\n',
      '.git': 'gitdir: ../../../.git/worktrees/fix\n',
      'api/h.ts': 'x',
      'src/a.ts': 'x',
    });
    const src = await sourceFor();
    const api = await src.find(path.join(wt, 'api/h.ts'), new Set(), none, wt);
    expect(api.files.map((f) => [path.relative(wt, f.path), f.text])).toEqual([
      ['api/CLAUDE.md', 'API rules on the branch.'],
    ]);
    const ts = await src.find(path.join(wt, 'src/a.ts'), new Set(), none, wt);
    expect(ts.files.map((f) => [path.relative(wt, f.path), f.covers])).toEqual([
      ['.claude/rules/ts.md', 'files matching src/**/*.ts'],
    ]);
  });

  it('brings nothing for a file outside the project root or under node_modules, or for a denied file', async () => {
    await writeTree(base, {
      'repo/node_modules/pkg/CLAUDE.md': 'A dependency speaks.\n',
      'repo/node_modules/pkg/index.js': 'x',
      'repo/secret/CLAUDE.md': 'Denied.\n',
      'repo/secret/a.txt': 'x',
      'elsewhere/CLAUDE.md': 'Outside.\n',
      'elsewhere/a.txt': 'x',
    });
    const src = await sourceFor();
    expect((await src.find(path.join(repo, 'node_modules/pkg/index.js'), new Set(), none)).files).toEqual([]);
    expect((await src.find(path.join(base, 'elsewhere/a.txt'), new Set(), none)).files).toEqual([]);
    const deny = (abs: string) => abs.startsWith(path.join(repo, 'secret'));
    expect((await src.find(path.join(repo, 'secret/a.txt'), new Set(), deny)).files).toEqual([]);
  });

  it('a sub-folder CLAUDE.md that links outside the repository is left out with one notice, not tried again', async () => {
    await writeTree(base, { 'home/.ssh/id_rsa': 'PRIVATE KEY\n', 'repo/sub/a.ts': 'x' });
    await symlink(path.join(base, 'home/.ssh/id_rsa'), path.join(repo, 'sub/CLAUDE.md'));
    const src = await sourceFor();
    const first = await src.find(path.join(repo, 'sub/a.ts'), new Set(), none);
    expect(first.files).toEqual([]);
    expect(first.notices).toHaveLength(1);
    expect(first.notices[0]).toContain('sub/CLAUDE.md: a link to a file outside the repository');
    expect(JSON.stringify(first)).not.toContain('PRIVATE KEY');
    expect(await src.find(path.join(repo, 'sub/a.ts'), new Set(), none)).toEqual({ files: [], notices: [] });
  });
});

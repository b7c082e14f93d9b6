import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch, type DispatchDeps } from '../../src/agent/dispatch';
import type { AgentEvent } from '../../src/agent/events';
import { Policy } from '../../src/approval/policy';
import type { ApprovalRequest, Decision } from '../../src/approval/types';
import { Registry } from '../../src/tools/registry';
import { writeFileTool } from '../../src/tools/write-file';
import { redactingStream } from '../../src/util/redact';
import { removeDir, tempDir } from '../tools/file-tools-kit';
import { QuestionQueue } from '../../src/agent/approval-gate';

let root: string;
beforeEach(async () => {
  root = await tempDir();
});
afterEach(() => removeDir(root));

function deps(answer: (req: ApprovalRequest, n: number) => Promise<Decision>): {
  deps: DispatchDeps;
  asked: ApprovalRequest[];
  events: AgentEvent[];
} {
  const asked: ApprovalRequest[] = [];
  const events: AgentEvent[] = [];
  return {
    asked,
    events,
    deps: {
      registry: new Registry([writeFileTool]),
      policy: new Policy(),
      questions: new QuestionQueue(),
      requestApproval: (req) => {
        asked.push(req);
        return answer(req, asked.length);
      },
      cwd: root,
      state: { memo: new Map() },
      emit: (e) => events.push(e),
      denials: [],
      scrub: (t) => t,
      scrubStream: () => redactingStream([]),
    },
  };
}

const use = { id: 't1', name: 'write_file', input: { path: 'notes.md', content: '# Notes\n- mine\n' } };

describe('dispatch: approving a preview', () => {
  it('asks again with the new diff when the file changes while the person reads the first one', async () => {
    const file = path.join(root, 'notes.md');
    await writeFile(file, '# Notes\n');
    const d = deps(async (_req, n) => {
      // Another program adds a line while the first prompt is on screen.
      if (n === 1) await writeFile(file, '# Notes\n- added meanwhile\n');
      return { kind: 'allow_once' };
    });
    const result = await dispatch(use, d.deps, new AbortController().signal);
    expect(d.asked.map((r) => r.preview?.before)).toEqual(['# Notes\n', '# Notes\n- added meanwhile\n']);
    expect(d.asked[1].summary).toBe('Write notes.md (changed since you were asked)');
    expect(result.is_error).toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe('# Notes\n- mine\n');
  });

  it('writes nothing when the person refuses the new diff', async () => {
    const file = path.join(root, 'notes.md');
    await writeFile(file, '# Notes\n');
    const d = deps(async (_req, n) => {
      if (n === 1) {
        await writeFile(file, '# Notes\n- added meanwhile\n');
        return { kind: 'allow_once' };
      }
      return { kind: 'deny' };
    });
    const result = await dispatch(use, d.deps, new AbortController().signal);
    expect(d.asked).toHaveLength(2);
    expect(result.is_error).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('# Notes\n- added meanwhile\n');
  });

  it('asks once when the file stays as previewed', async () => {
    await writeFile(path.join(root, 'notes.md'), '# Notes\n');
    const d = deps(async () => ({ kind: 'allow_once' }));
    await dispatch(use, d.deps, new AbortController().signal);
    expect(d.asked).toHaveLength(1);
    expect(d.events.filter((e) => e.type === 'approval_request')).toHaveLength(1);
  });
});

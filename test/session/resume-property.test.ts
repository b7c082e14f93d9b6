import { existsSync, mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/agent/conversation';
import { resumeConversation } from '../../src/agent/resume';
import { buildRequest } from '../../src/llm/request';
import type { ContentBlockParam, MessageParam } from '../../src/llm/types';
import { SessionRecorder, conversationFile, loadSession } from '../../src/session/store';
import { invariantProblems } from '../support/conversation-invariants';
import { requestProblem } from '../support/request-checks';
import { prng } from '../support/prng';

const OPS = ['prompt', 'reply', 'reply', 'results', 'interrupt', 'pause', 'compact', 'takeback', 'resume'];

/**
 * A session of random steps (prompts, replies with tool uses and thinking, results, interrupts,
 * pause_turns, compactions, a prompt taken back, resumes), recorded by the store; after every step
 * codey is "killed": the file is read back as it is (sometimes with its last line cut mid-write)
 * and resumed. The resumed conversation must satisfy the invariants, make a request the API accepts,
 * and (when no line was cut) hold exactly the messages of the live one, plus results for open calls.
 */
function run(seed: number, steps: number, dir: string): number {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const id = `prop-${seed}`;
  let nextId = 0;
  const header = {
    type: 'session' as const,
    version: 1 as const,
    id,
    workspace: '/w',
    model: 'm',
    started_at: new Date().toISOString(),
    codey_version: '0',
  };
  let recorder = new SessionRecorder({ dir, header, scrub: (s) => s });
  let c = new Conversation();
  recorder.follow(c);
  const text = () => pick(['', ' ', 'ok', 'the plan', 'naïve ✓ text']);
  const blocks = (tools: boolean): ContentBlockParam[] => {
    const out: ContentBlockParam[] = [];
    for (let n = Math.floor(rnd() * 3); n > 0; n--) {
      if (rnd() < 0.6) out.push({ type: 'text', text: text() });
      else out.push({ type: 'thinking', thinking: 'hm', signature: pick(['', 'sig_x']) });
    }
    if (tools)
      for (let n = Math.floor(rnd() * 3); n > 0; n--)
        out.push({ type: 'tool_use', id: `toolu_${seed}_${nextId++}`, name: 'bash', input: { c: 1 } });
    return out;
  };
  const log: string[] = [];
  let checked = 0;
  for (let step = 0; step < steps; step++) {
    const op = pick(OPS);
    log.push(op);
    switch (op) {
      case 'prompt':
        c.appendUser(text());
        break;
      case 'reply':
        if (c.length > 0) c.appendAssistant(blocks(true));
        break;
      case 'results':
      case 'interrupt': {
        const open = c.openToolUses().filter(() => rnd() < (op === 'results' ? 0.9 : 0.3));
        c.appendUser(open.map((u) => ({ type: 'tool_result', tool_use_id: u.id, content: 'done' })));
        break;
      }
      case 'pause':
        if (c.length > 0 && c.openToolUses().length === 0) {
          c.appendAssistant(blocks(false));
          c.appendAssistant(blocks(rnd() < 0.5));
        }
        break;
      case 'compact':
        if (c.length > 0) c.replacePrefix(Math.floor(rnd() * (c.length + 1)), 'Summary so far.');
        break;
      case 'takeback': {
        const back = c.checkpoint();
        c.appendUser('too large');
        back();
        break;
      }
      case 'resume': {
        // A real resume: read back, repair, go on recording in the same file.
        if (!existsSync(conversationFile(dir, id))) break;
        recorder.close();
        const stored = loadSession(dir, id);
        c = resumeConversation(stored.messages).conversation;
        recorder = new SessionRecorder({
          dir,
          header,
          scrub: (s) => s,
          existing: { summary: stored.summary, messages: stored.messages, wholeBytes: stored.wholeBytes },
        });
        recorder.follow(c);
        break;
      }
    }
    if (c.length === 0) continue;
    // kill -9 here: what does a resume see?
    const file = conversationFile(dir, id);
    const whole = readFileSync(file);
    const cut = rnd() < 0.2;
    if (cut) truncateSync(file, Math.max(0, statSync(file).size - 1 - Math.floor(rnd() * 40)));
    let stored;
    try {
      stored = loadSession(dir, id);
    } catch {
      // Cut into the header line: nothing to resume, which loadSession says.
      expect(cut).toBe(true);
      writeFileSync(file, whole);
      continue;
    }
    const resumed = resumeConversation(stored.messages).conversation.messages as MessageParam[];
    const why = `seed ${seed}: ${log.join(' ')}`;
    expect(invariantProblems(resumed), why).toEqual([]);
    if (resumed.length > 0 && resumed.at(-1)!.role === 'user') {
      const body = buildRequest({
        model: 'm',
        system: 's',
        tools: [],
        hostedTools: [],
        messages: resumed,
        maxTokens: 10,
        thinking: 'off',
      });
      expect(requestProblem(body), why).toBeNull();
    }
    if (!cut) {
      expect(resumed.slice(0, c.length), why).toEqual(c.messages);
      checked++;
    }
    writeFileSync(file, whole);
  }
  recorder.close();
  return checked;
}

describe('the invariants across record, kill -9 and resume', () => {
  it('hold for 60 seeded sessions, and an uncut record resumes to the live conversation', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'codey-prop-')), 'sessions');
    let checked = 0;
    for (let seed = 1; seed <= 60; seed++) checked += run(seed, 40, dir);
    expect(checked).toBeGreaterThan(400);
  }, 120_000); // 60 sessions of 40 steps: about 15 s on a quiet machine, minutes on a loaded one
});

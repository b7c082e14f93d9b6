import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QuestionQueue } from '../../src/agent/approval-gate';
import { dispatch, type DispatchDeps } from '../../src/agent/dispatch';
import type { AgentEvent } from '../../src/agent/events';
import { Policy } from '../../src/approval/policy';
import type { ApprovalRequest, Decision } from '../../src/approval/types';
import { SANDBOX_NOTE } from '../../src/tools/bash';
import { toolsIn } from '../../src/tools/factory';
import type { Registry } from '../../src/tools/registry';
import { redactingStream } from '../../src/util/redact';

const hasBwrap = spawnSync('bwrap', ['--version'], { stdio: 'ignore' }).status === 0;

let dir: string;
let registry: Registry;
let server: Server;
let port: number;
let got: string[];
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), 'codey-dispatch-sandbox-')));
  registry = await toolsIn({
    settings: {
      webProvider: 'none',
      webFetch: 'none',
      version: 'test',
      sandbox: { bwrap: 'bwrap', hidden: [] },
    },
    env: { PATH: process.env.PATH },
  });
  got = [];
  server = createServer((s) => s.on('data', (d) => got.push(String(d))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterEach(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

function deps(
  policy: Policy,
  answer?: Decision,
  asked: ApprovalRequest[] = [],
  events: AgentEvent[] = [],
): DispatchDeps {
  return {
    registry,
    policy,
    questions: new QuestionQueue(),
    ...(answer && {
      requestApproval: (req: ApprovalRequest) => {
        asked.push(req);
        return Promise.resolve(answer);
      },
    }),
    cwd: dir,
    state: { memo: new Map() },
    emit: (e) => events.push(e),
    denials: [],
    scrub: (t) => t,
    scrubStream: () => redactingStream([]),
  };
}

const send = (network?: boolean) => ({
  command: `echo hello > /dev/tcp/127.0.0.1/${port} && echo sent`,
  ...(network === undefined ? {} : { network }),
});
const call = (input: unknown, d: DispatchDeps) =>
  dispatch({ id: 'toolu_1', name: 'bash', input }, d, new AbortController().signal);

describe.skipIf(!hasBwrap && process.env.CI !== 'true')('bash with the sandbox on', () => {
  it('runs unasked under sandbox_auto_allow, without the network, and says how to get it', async () => {
    const r = await call(send(), deps(new Policy([], [], { sandboxAutoAllow: true })));
    expect(r.content).not.toContain('\nsent');
    expect(r.content).toContain(SANDBOX_NOTE);
    expect(got).toEqual([]);
  });

  it('reaches a server outside when a net: rule allows the command', async () => {
    const policy = new Policy([`bash(net:echo hello > /dev/tcp/127.0.0.1/${port} && echo sent)`]);
    const r = await call(send(), deps(policy));
    expect(r.content).toBe('sent');
    await expect.poll(() => got.join(''), { timeout: 10_000 }).toBe('hello\n');
  });

  it('asks for a command that wants the network, even under auto-allow, and a yes gives it', async () => {
    const asked: ApprovalRequest[] = [];
    const r = await call(
      send(true),
      deps(new Policy([], [], { sandboxAutoAllow: true }), { kind: 'allow_once' }, asked),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      network: true,
      sandboxed: true,
      summary: expect.stringMatching(/^Run with network:/),
    });
    expect(r.content).toBe('sent');
  });

  it('"yes, with network" gives the network to a command that did not ask for it', async () => {
    const r = await call(send(), deps(new Policy(), { kind: 'allow_network' }));
    expect(r.content).toBe('sent');
    const plain = await call(send(), deps(new Policy(), { kind: 'allow_once' }));
    expect(plain.content).toContain(SANDBOX_NOTE);
  });

  it('"yes, outside the sandbox" runs the command without bwrap, and a failed one asks again to offer it', async () => {
    const outside = await realpath(await mkdtemp(path.join(tmpdir(), 'codey-outside-')));
    try {
      const target = path.join(outside, 'made');
      const write = { command: `echo made > ${target} && echo wrote` };
      const policy = new Policy([], [], { sandboxAutoAllow: true });
      const asked: ApprovalRequest[] = [];
      const events: AgentEvent[] = [];
      const first = await call(write, deps(policy, { kind: 'allow_unsandboxed' }, asked, events));
      expect(asked).toHaveLength(0);
      expect(first.content).toContain('exit code 1');
      expect(first.content).toContain('the person is asked and may run it outside the sandbox');
      expect(existsSync(target)).toBe(false);
      // Without anyone to ask (-p), the same command runs in the sandbox again.
      const printed = await call(write, deps(policy));
      expect(printed.content).toContain('exit code 1');
      const second = await call(write, deps(policy, { kind: 'allow_unsandboxed' }, asked, events));
      expect(asked).toHaveLength(1);
      expect(asked[0].summary).toContain('it failed in the sandbox last time');
      expect(second.content).toBe('wrote');
      expect(readFileSync(target, 'utf8')).toBe('made\n');
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'approval_decision',
          decision: { kind: 'allow_unsandboxed' },
          source: 'person',
        }),
      );
      // It ran as the person: the PID namespace is codey's own, not a new one whose first process is bwrap's.
      const pid = await call({ command: 'echo $$' }, deps(new Policy(), { kind: 'allow_unsandboxed' }));
      expect(Number(pid.content)).toBeGreaterThan(2);
      const inside = await call({ command: 'echo $$' }, deps(new Policy(), { kind: 'allow_once' }));
      expect(Number(inside.content)).toBeLessThanOrEqual(2);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

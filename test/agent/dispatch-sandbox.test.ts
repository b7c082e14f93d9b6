import { spawnSync } from 'node:child_process';
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

function deps(policy: Policy, answer?: Decision, asked: ApprovalRequest[] = []): DispatchDeps {
  const events: AgentEvent[] = [];
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
});

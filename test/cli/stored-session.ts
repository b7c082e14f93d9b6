import { join } from 'node:path';
import { SessionController } from '../../src/cli/controller';
import { findFor, readForResume } from '../../src/cli/resume';
import { createSession } from '../../src/cli/session';
import { resolveSettings } from '../../src/config/resolve';
import { ScriptedLlm, type ScriptedReply } from '../../src/llm/scripted';

/** The environment of a test session whose store is in `root/state`; the API is never reached. */
export const sessionEnv = (root: string) => ({
  ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
  XDG_STATE_HOME: join(root, 'state'),
  PATH: process.env.PATH,
});

/**
 * A session in `root/work` (store in `root/state`) whose model plays `replies`, and its controller;
 * `resume`: going on with the workspace's newest stored session (`codey -c`). No sandbox, no web.
 */
export async function openSession(root: string, resume: boolean, replies: ScriptedReply[]) {
  const work = join(root, 'work');
  const env = sessionEnv(root);
  const { settings } = await resolveSettings({ env, cwd: root, userFile: join(root, 'config.json') });
  const found = resume ? findFor({ kind: 'continue' }, work, env) : undefined;
  if (found && !found.ok) throw new Error(found.message);
  const session = await createSession({
    settings: { ...settings, sandbox: 'off' },
    cwd: work,
    env,
    version: 'test',
    noWeb: true,
    llm: new ScriptedLlm(replies),
    resumption: found ? readForResume(found.summary, env) : undefined,
  });
  const controller = new SessionController(session, settings, join(root, 'history.jsonl'), [], env);
  return { session, controller, env };
}

/**
 * The sandbox a command runs in when `sandbox: on` (README, "Sandbox"): bubblewrap (`bwrap`) with
 * the root file system read-only, the workspace and a private `/tmp` writable, the repository's
 * hooks and config and codey's project files read-only even there, the person's keys and codey's
 * own folders not mounted, a new PID namespace (the child sees no process of codey's, so not its
 * environment either), and no network unless the call was allowed it. The one process runner
 * (`exec.ts`) puts a child in it when its options carry a {@link SandboxSpec}.
 */
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunChild, SandboxSpec } from '../util/exec-shapes';
import { isInside, isProtectedPath } from './workspace';

export type { SandboxSpec } from '../util/exec-shapes';

/** Where the person keeps keys and tokens, relative to their home: never mounted in the sandbox. */
const HOME_SECRETS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.azure',
  '.kube',
  '.docker',
  '.config/gcloud',
  '.config/gh',
  '.netrc',
  '.npmrc',
  '.git-credentials',
  '.claude/.credentials.json',
];

/** Sockets that hand out more than the sandbox allows (the Docker daemon runs anything as root). */
const SYSTEM_SECRETS: readonly string[] = ['/var/run/docker.sock', '/run/docker.sock'];

/** Variables naming an agent or bus the sandboxed command could talk to (ssh-agent holds keys). */
const AGENT_VARS: readonly string[] = ['SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'DBUS_SESSION_BUS_ADDRESS'];

/** What {@link hiddenPaths} is built from: the person's folders, absolute. */
export interface PersonFolders {
  home: string;
  /** codey's config folder (`~/.config/codey`) and state folder (sessions, trust answers). */
  configDir: string;
  stateDir: string;
  /** `$XDG_RUNTIME_DIR` (`/run/user/UID`: the session bus, agent sockets), when set. */
  runtimeDir?: string;
}

/** The paths the sandbox leaves out for this person: their keys, codey's folders, agent sockets. */
export function hiddenPaths(p: PersonFolders): string[] {
  return [
    ...HOME_SECRETS.map((rel) => path.join(p.home, rel)),
    p.configDir,
    p.stateDir,
    ...(p.runtimeDir ? [p.runtimeDir] : []),
    ...SYSTEM_SECRETS,
  ];
}

type Kind = 'dir' | 'file' | 'other' | undefined;

function kindOf(p: string): Kind {
  try {
    const s = lstatSync(p);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Names in a workspace root that set what codey or a tool does next, besides `.git`'s hooks and config. */
const AGENT_FILES: readonly string[] = ['.codey', '.claude', '.mcp.json'];

/**
 * What stays read-only inside a writable folder besides its repository ({@link gitMounts}): codey's
 * project config files, `.codey`, `.claude` and `.mcp.json`; only those that exist (a mount needs
 * something to mount).
 * A missing project file a command creates only takes effect after the person's trust answer. `package.json` stays writable: installing a package writes it.
 */
function readOnlyInside(root: string): string[] {
  const config = [
    ...entries(root).map((n) => path.join(root, n)),
    ...entries(path.join(root, '.config')).map((n) => path.join(root, '.config', n)),
  ].filter((p) => {
    const name = path.basename(p);
    return (
      name !== 'package.json' &&
      name !== '.git' &&
      name !== '.config' &&
      isProtectedPath(path.relative(root, p))
    );
  });
  return [...config, ...AGENT_FILES.map((n) => path.join(root, n))].filter((p) => kindOf(p));
}

/**
 * The paths a repository's `.git/config` names that git reads or runs: `core.hooksPath` (husky's
 * `.husky/_`) and `include.path` / `includeIf.*.path` files, relative ones from `root` (the work
 * tree) and from `.git`. A rough reading (no quoting rules): what it misses stays writable.
 */
function namedByConfig(root: string, text: string): string[] {
  const out: string[] = [];
  let section = '';
  for (const line of text.split('\n')) {
    const head = /^\s*\[\s*([A-Za-z]+)/.exec(line);
    if (head) section = head[1].toLowerCase();
    const m = /^\s*(?:\[[^\]]*\]\s*)?([A-Za-z]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const key = m[1].toLowerCase();
    const value = m[2].replace(/^"(.*)"$/, '$1');
    if (!value) continue;
    if (section === 'core' && key === 'hookspath') out.push(path.resolve(root, value));
    if ((section === 'include' || section === 'includeif') && key === 'path')
      out.push(path.resolve(root, '.git', value));
  }
  return out;
}

/**
 * The mounts that keep a workspace's repository from running a command's code later, outside the
 * sandbox. A `.git` file (a linked worktree's pointer) is read-only. A `.git` folder is mounted on
 * itself, so that it cannot be moved or removed (a mount point is busy) and replaced by one with
 * hooks; in it `hooks` and `config` are read-only, a missing `hooks` an empty read-only folder and a
 * missing `config` an empty file made first (git reads an empty config as none); and what `config`
 * names inside the workspace (`core.hooksPath`, included files) is read-only too.
 */
function gitMounts(root: string): string[] {
  const git = path.join(root, '.git');
  const kind = kindOf(git);
  if (kind === 'file') return ['--ro-bind', git, git];
  if (kind !== 'dir') return [];
  const out = ['--bind', git, git];
  const hooks = path.join(git, 'hooks');
  if (kindOf(hooks)) out.push('--ro-bind', hooks, hooks);
  else out.push('--tmpfs', hooks, '--remount-ro', hooks);
  const config = path.join(git, 'config');
  try {
    writeFileSync(config, '', { flag: 'wx' });
  } catch {
    // It is there (or cannot be made: then bwrap's own mount point stands in for it).
  }
  out.push('--ro-bind', config, config);
  let text = '';
  try {
    text = readFileSync(config, 'utf8');
  } catch {
    // Unreadable: git cannot read it either.
  }
  for (const p of namedByConfig(root, text)) {
    if (!isInside(root, p) || isInside(git, p)) continue;
    if (kindOf(p)) out.push('--ro-bind', p, p);
    else out.push('--tmpfs', p, '--remount-ro', p);
  }
  return out;
}

/**
 * The bwrap arguments that run `file args` in `cwd` inside the sandbox `spec`. Mount order matters
 * (a later mount covers an earlier one): the read-only root, `/dev`, a fresh `/proc`, a private
 * `/tmp`, the writable folders, what stays read-only in them, then the hidden paths over all of it
 * (a folder as an empty tmpfs, a file as `/dev/null`), except one that holds a writable folder,
 * which would hide the workspace itself; a readable folder inside a hidden one is mounted back,
 * read-only, into its stand-in. The child gets no new session: the runner already started
 * bwrap as the leader of a new one, with no controlling terminal.
 */
export function bwrapArgs(spec: SandboxSpec, cwd: string, file: string, args: readonly string[]): string[] {
  const out = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const w of spec.writable) out.push('--bind', w, w);
  for (const w of spec.writable) out.push(...gitMounts(w));
  for (const w of spec.writable) for (const r of readOnlyInside(w)) out.push('--ro-bind', r, r);
  for (const h of spec.hidden) {
    if (spec.writable.some((w) => isInside(h, w))) continue;
    const kind = kindOf(h);
    const inside = (spec.readable ?? []).filter((r) => isInside(h, r));
    if (kind === 'dir') {
      out.push('--tmpfs', h);
      for (const r of inside) if (kindOf(r)) out.push('--ro-bind', r, r);
      out.push('--remount-ro', h);
    } else if (kind && inside.length === 0) out.push('--ro-bind', '/dev/null', h);
  }
  for (const v of AGENT_VARS) out.push('--unsetenv', v);
  out.push('--unshare-all', ...(spec.network ? ['--share-net'] : []), '--die-with-parent');
  out.push('--chdir', cwd, '--', file, ...args);
  return out;
}

/** How to turn the sandbox on where it cannot start, for the one line that says so. */
const FIX =
  'install bubblewrap (Debian, Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap), ' +
  'or turn the sandbox off (sandbox: off, or CODEY_SANDBOX=off)';
const FIX_NAMESPACES =
  'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu ' +
  'kernel.apparmor_restrict_unprivileged_userns=0), or turn the sandbox off (sandbox: off, or CODEY_SANDBOX=off)';

/**
 * Whether the sandbox can start here: runs `true` in the strictest sandbox once (a session does
 * this once, at start), bwrap looked up on `env`'s PATH. Resolves with undefined when it can, else with the one line saying why not
 * and how to fix it (codey then runs no command rather than run one outside). Never rejects.
 */
export async function probeSandbox(
  bwrap: string,
  run: RunChild,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> {
  const spec: SandboxSpec = { bwrap, writable: [], hidden: [], network: false };
  const r = await run('true', [], { cwd: '/', env, sandbox: spec, timeoutMs: 10_000 });
  if (r.spawnError?.code === 'ENOENT')
    return `codey: sandbox is on, but bwrap (${bwrap}) was not found; ${FIX}`;
  if (r.spawnError)
    return `codey: sandbox is on, but bwrap could not start (${r.spawnError.message}); ${FIX}`;
  if (r.exitCode === 0) return undefined;
  const why =
    r.stderr.trim().split('\n')[0] || (r.timedOut ? 'it did not answer in 10 s' : `exit ${r.exitCode}`);
  return `codey: sandbox is on, but bwrap cannot make a sandbox here (${why}); ${FIX_NAMESPACES}`;
}

/**
 * The setup wizard's state and its pure reducer: which step is shown, the cursor or the text being
 * typed, and what was chosen so far. Keys come in as {@link Press}; the async parts (finding ddgs,
 * writing the file) run in Wizard.tsx and report back as actions.
 *
 * Secrets: the state never holds the value of an environment variable, only whether it is set, and
 * never the stored `api_key`, only whether there is one. A key the person pastes is held until it is
 * written and is only ever rendered masked.
 */
import { WEB_PROVIDERS, settingSchemas, type WebProvider } from '../../config/schema';
import { ENV_NAMES } from '../../config/setting-meta';
import { keyProblem } from '../../config/key-shape';
import { DEFAULT_COMMAND_TEXT, MODEL_CHOICES, PROVIDER_ENV_VARS, WEB_CHOICES } from './options';

/** What the wizard needs from outside; the CLI builds it. */
export interface WizardDeps {
  /** Read for key variable names and provider variables; values are never shown. */
  env: Record<string, string | undefined>;
  /** The user config file, e.g. `userConfigFile(env)`. */
  userFile: string;
  /** The user file's current content, `{}` if none; its values are the defaults. */
  existing: Record<string, unknown>;
  /** Whether a command is on PATH (the CLI passes `isCommandAvailable` from src/web/search/command.ts). */
  isOnPath: (cmd: string) => Promise<boolean>;
  /** Merges values into the file; default `writeUserConfig` (src/config/write.ts). */
  write?: (path: string, values: Record<string, unknown>) => Promise<void>;
}

/** How the wizard ended: the file written, or nothing written (cancelled). */
export type WizardOutcome = { written: true; file: string } | { written: false };

export type StepId =
  | 'key'
  | 'key-paste'
  | 'endpoint-url'
  | 'endpoint-key'
  | 'model'
  | 'model-custom'
  | 'web'
  | 'web-command'
  | 'summary'
  | 'saving'
  | 'done'
  | 'cancelled';

/** Where the API key comes from. */
export type KeySource = 'env' | 'paste' | 'endpoint';
/** What to do with `api_key` in the file: set it, keep the stored one, or remove it. */
export type KeyAction = { kind: 'typed'; value: string } | { kind: 'keep' } | { kind: 'none' };

export interface Choices {
  keySource: KeySource;
  apiKey: KeyAction;
  baseUrl: string;
  model: string;
  /** The model was typed, not picked from the list. */
  modelTyped: boolean;
  web: WebProvider;
  /** The command template as one line. */
  command: string;
}

/** Fixed for one run; holds no secret values. */
export interface WizardContext {
  userFile: string;
  /** The variable that supplies the key (`CODEY_API_KEY` or `ANTHROPIC_API_KEY`), if any. */
  envKeyName?: string;
  /** Whether each provider variable (BRAVE_API_KEY, …) is set to a non-empty value. */
  envSet: Readonly<Record<string, boolean>>;
  /** The file already holds an `api_key`. */
  storedKey: boolean;
  storedBaseUrl?: string;
  /** The stored `web_command`, kept exactly when its line is not edited (an element may hold spaces). */
  storedCommand?: string[];
}

export interface WizardState {
  ctx: WizardContext;
  step: StepId;
  /** Steps to go back to with Esc, newest last. */
  history: StepId[];
  /** Highlighted row of a list step. */
  cursor: number;
  /** Text of a text step. */
  text: string;
  /** A message under the current step (invalid input, a failed write). */
  error?: string;
  choices: Choices;
  ddgs: 'checking' | 'found' | 'missing';
}

/** One key press, reduced to what the wizard uses. */
export interface Press {
  /** Printable text typed or pasted ('' for special keys). */
  text: string;
  up?: boolean;
  down?: boolean;
  enter?: boolean;
  esc?: boolean;
  backspace?: boolean;
  /** Ctrl+U: clear the text field. */
  clear?: boolean;
  ctrlC?: boolean;
}

export type WizardAction =
  | { type: 'press'; press: Press }
  | { type: 'ddgs'; found: boolean }
  | { type: 'saved' }
  | { type: 'failed'; message: string };

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The first state, from the environment and the existing file. */
export function initialState(deps: Pick<WizardDeps, 'env' | 'userFile' | 'existing'>): WizardState {
  const { env, existing } = deps;
  const set = (name: string) => typeof env[name] === 'string' && env[name] !== '';
  const envKeyName = (ENV_NAMES.api_key ?? []).find(set);
  const storedKey = str(existing.api_key) !== undefined;
  const storedBaseUrl = str(existing.base_url);
  const cmd = existing.web_command;
  const storedCommand =
    Array.isArray(cmd) && cmd.length > 0 && cmd.every((x) => typeof x === 'string' && x !== '')
      ? (cmd as string[])
      : undefined;
  const model = str(existing.model) ?? MODEL_CHOICES[0].id;
  // A list of providers (set by hand) shows its first as the choice.
  const stored: unknown = Array.isArray(existing.web_provider)
    ? existing.web_provider[0]
    : existing.web_provider;
  const provider = WEB_PROVIDERS.find((p) => p === stored) ?? 'none';
  const ctx: WizardContext = {
    userFile: deps.userFile,
    envKeyName,
    envSet: Object.fromEntries(PROVIDER_ENV_VARS.map((n) => [n, set(n)])),
    storedKey,
    storedBaseUrl,
    storedCommand,
  };
  const choices: Choices = {
    keySource: envKeyName ? 'env' : storedBaseUrl ? 'endpoint' : 'paste',
    apiKey: { kind: 'none' },
    baseUrl: storedBaseUrl ?? '',
    model,
    modelTyped: !MODEL_CHOICES.some((m) => m.id === model),
    web: provider,
    command: storedCommand ? storedCommand.join(' ') : DEFAULT_COMMAND_TEXT,
  };
  return enter({ ctx, step: 'key', history: [], cursor: 0, text: '', choices, ddgs: 'checking' }, 'key');
}

/** Show `step`, with its cursor or text taken from what was chosen before (so Esc returns to it). */
function enter(s: WizardState, step: StepId): WizardState {
  const c = s.choices;
  const next: WizardState = { ...s, step, cursor: 0, text: '', error: undefined };
  switch (step) {
    case 'key':
      next.cursor = c.keySource === 'endpoint' ? 1 : 0;
      break;
    case 'key-paste':
    case 'endpoint-key':
      next.text = c.apiKey.kind === 'typed' ? c.apiKey.value : '';
      break;
    case 'endpoint-url':
      next.text = c.baseUrl;
      break;
    case 'model':
      next.cursor = c.modelTyped ? MODEL_CHOICES.length : MODEL_CHOICES.findIndex((m) => m.id === c.model);
      break;
    case 'model-custom':
      next.text = c.modelTyped ? c.model : '';
      break;
    case 'web':
      next.cursor = Math.max(
        0,
        WEB_CHOICES.findIndex((w) => w.provider === c.web),
      );
      break;
    case 'web-command':
      next.text = c.command;
      break;
    case 'summary':
    case 'saving':
    case 'done':
    case 'cancelled':
      break;
  }
  return next;
}

function advance(s: WizardState, step: StepId, patch: Partial<Choices> = {}): WizardState {
  return enter({ ...s, history: [...s.history, s.step], choices: { ...s.choices, ...patch } }, step);
}

function back(s: WizardState): WizardState {
  const prev = s.history[s.history.length - 1];
  if (prev === undefined) return { ...s, step: 'cancelled' };
  return enter({ ...s, history: s.history.slice(0, -1) }, prev);
}

/** The stored key may be kept only where it was used before, so no key goes somewhere new untyped. */
export function canKeepKey(ctx: WizardContext, source: KeySource, baseUrl: string): boolean {
  if (!ctx.storedKey) return false;
  return source === 'endpoint' ? ctx.storedBaseUrl === baseUrl : ctx.storedBaseUrl === undefined;
}

/** Rows of the list shown at `step` (0 for a step that is not a list). */
function listLength(s: WizardState): number {
  switch (s.step) {
    case 'key':
      return s.ctx.envKeyName ? 1 : 2;
    case 'model':
      return MODEL_CHOICES.length + 1;
    case 'web':
      return WEB_CHOICES.length;
    default:
      return 0;
  }
}

function choose(s: WizardState, index: number): WizardState {
  switch (s.step) {
    case 'key': {
      if (s.ctx.envKeyName) return advance(s, 'model');
      const keySource: KeySource = index === 1 ? 'endpoint' : 'paste';
      // A typed key is not carried from one source to the other.
      const apiKey = keySource === s.choices.keySource ? s.choices.apiKey : { kind: 'none' as const };
      return advance(s, keySource === 'paste' ? 'key-paste' : 'endpoint-url', { keySource, apiKey });
    }
    case 'model': {
      const m = MODEL_CHOICES[index];
      return m ? advance(s, 'web', { model: m.id, modelTyped: false }) : advance(s, 'model-custom');
    }
    case 'web': {
      const web = WEB_CHOICES[index].provider;
      return advance(s, web === 'command' ? 'web-command' : 'summary', { web });
    }
    default:
      return s;
  }
}

function submit(s: WizardState): WizardState {
  const text = s.text.trim();
  const fail = (error: string): WizardState => ({ ...s, error });
  switch (s.step) {
    case 'key-paste':
      if (text && keyProblem(text)) return fail(`${keyProblem(text)}.`);
      if (text) return advance(s, 'model', { apiKey: { kind: 'typed', value: text } });
      if (canKeepKey(s.ctx, 'paste', '')) return advance(s, 'model', { apiKey: { kind: 'keep' } });
      return fail('Paste a key, or press Esc to go back and choose an endpoint.');
    case 'endpoint-url':
      if (!settingSchemas.base_url.safeParse(text).success) {
        return fail('Enter an http:// or https:// URL, e.g. http://localhost:4000');
      }
      return advance(s, 'endpoint-key', { baseUrl: text });
    case 'endpoint-key': {
      if (text && keyProblem(text)) return fail(`${keyProblem(text)}.`);
      if (text) return advance(s, 'model', { apiKey: { kind: 'typed', value: text } });
      const keep = canKeepKey(s.ctx, 'endpoint', s.choices.baseUrl);
      return advance(s, 'model', { apiKey: { kind: keep ? 'keep' : 'none' } });
    }
    case 'model-custom':
      if (!/^\S+$/.test(text)) return fail('Type a model id (one word), e.g. claude-opus-4-8');
      return advance(s, 'web', { model: text, modelTyped: true });
    case 'web-command': {
      const argv = text.split(/\s+/).filter(Boolean);
      if (!argv.includes('{query}')) {
        return fail('The template needs {query} as a word of its own: it is replaced by the query.');
      }
      return advance(s, 'summary', { command: text });
    }
    default:
      return s;
  }
}

/** Keys, secrets and URLs take no whitespace; other fields take a paste's line breaks as spaces. */
function cleanInput(step: StepId, text: string): string {
  const noControl = text.replace(/[\r\n\t]+/g, ' ').replace(/[\u0000-\u001F\u007F]/g, '');
  return step === 'web-command' || step === 'model-custom' ? noControl : noControl.replace(/\s+/g, '');
}

function onPress(s: WizardState, p: Press): WizardState {
  if (s.step === 'saving' || s.step === 'done' || s.step === 'cancelled') return s;
  if (p.ctrlC) return { ...s, step: 'cancelled' };
  if (p.esc) return back(s);
  const n = listLength(s);
  if (n > 0) {
    if (p.up) return { ...s, cursor: (s.cursor + n - 1) % n };
    if (p.down) return { ...s, cursor: (s.cursor + 1) % n };
    if (p.enter) return choose(s, s.cursor);
    const digit = /^[1-9]$/.test(p.text) ? Number(p.text) : 0;
    return digit >= 1 && digit <= n ? choose(s, digit - 1) : s;
  }
  if (s.step === 'summary') return p.enter ? { ...s, step: 'saving', error: undefined } : s;
  if (p.enter) return submit(s);
  if (p.clear) return { ...s, text: '', error: undefined };
  if (p.backspace) return { ...s, text: s.text.slice(0, -1) };
  const add = cleanInput(s.step, p.text);
  return add ? { ...s, text: s.text + add, error: undefined } : s;
}

/** The reducer: keys, the ddgs check, and the result of the write. */
export function reduce(s: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'press':
      return onPress(s, action.press);
    case 'ddgs':
      return { ...s, ddgs: action.found ? 'found' : 'missing' };
    case 'saved':
      return { ...s, step: 'done' };
    case 'failed':
      return { ...s, step: 'summary', error: action.message };
  }
}

/** The `web_command` argv to write: the stored one when its line was not edited, else split on whitespace. */
export function commandArgv(s: WizardState): string[] {
  const { storedCommand } = s.ctx;
  if (storedCommand && s.choices.command.trim() === storedCommand.join(' ')) return storedCommand;
  return s.choices.command.trim().split(/\s+/).filter(Boolean);
}

/**
 * The settings to merge into the user file. `undefined` removes a key: `base_url` when the person
 * chose Anthropic's API with a pasted key, `api_key` when an endpoint takes no key. With the key from
 * the environment, `api_key` and `base_url` are left as they are.
 */
export function valuesToWrite(s: WizardState): Record<string, unknown> {
  const c = s.choices;
  const values: Record<string, unknown> = { model: c.model, web_provider: c.web };
  if (c.web === 'command') values.web_command = commandArgv(s);
  if (c.keySource === 'paste') values.base_url = undefined;
  if (c.keySource === 'endpoint') values.base_url = c.baseUrl;
  if (c.keySource !== 'env') {
    if (c.apiKey.kind === 'typed') values.api_key = c.apiKey.value;
    else if (c.apiKey.kind === 'none') values.api_key = undefined;
  }
  return values;
}

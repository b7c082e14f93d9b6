#!/usr/bin/env node
// In-process half of bench/tui.mjs (which starts it; it is not meant to be run by hand): the real Ink
// app, started with runTui (src/tui/app/run.tsx, the CLI's own render options), on a fake terminal (a
// 120×40 TTY-like stdout that counts bytes) and a fake Controller that emits AgentEvents, as the
// loop would. Prints one JSON line with the figures; asserts nothing.
//
//   node bench/tui-render.mjs <bundle.mjs> render <items> <warm-up items>  streaming cost, see below
//   node [--expose-gc] bench/tui-render.mjs <bundle.mjs> memory <turns>   peak RSS of a long session
//
// <bundle.mjs> is src/tui/app/run.tsx bundled by bench/tui.mjs with its packages left external, so ink
// and react are the ones in node_modules, as for the built CLI.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setImmediate as tick } from 'node:timers/promises';
import {
  BASH_OUTPUT,
  BenchController,
  DEADLINE_MS,
  deltasOf,
  Keyboard,
  replyText,
  Screen,
  usageOf,
} from './tui-fake.mjs';

const [bundle, mode, countArg, warmArg] = process.argv.slice(2);
const { runTui } = await import(pathToFileURL(bundle).href);

/**
 * Under bench/tui.mjs (an IPC channel), bursts wait for the parent's go: two processes, one per
 * transcript size, then stream in turns, so that load on the machine falls on both alike. Each
 * process says `ready` (with how many go's it will wait for) and answers every go with `done`.
 */
const gated = typeof process.send === 'function';
const inbox = [];
let waiting;
if (gated) {
  process.on('message', (m) => {
    if (waiting) waiting(m);
    else inbox.push(m);
    waiting = undefined;
  });
}
const go = () => (inbox.length ? Promise.resolve(inbox.shift()) : new Promise((r) => (waiting = r)));

const SMOKE = process.env.BENCH_SMOKE === '1';
const DELTAS = SMOKE ? 1_000 : 10_000;
/** Deltas per app frame: the app applies streamed deltas once per 50 ms (FRAME_MS), one burst each. */
const BURST = 100;
/** Deltas streamed, untimed, in a throwaway app before the measured one. */
const WARMUP_DELTAS = SMOKE ? 300 : 3_000;

// Every app's folder (its history file) lives under one root, removed as the process exits: the app
// appends to its history without waiting, so a folder removed at quit could be made again.
const root = mkdtempSync(join(tmpdir(), 'codey-bench-tui-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));

/** Starts the app on a fake terminal and returns the means to drive it. */
async function start() {
  const dir = mkdtempSync(join(root, 'app-'));
  const screen = new Screen();
  const keys = new Keyboard();
  const c = new BenchController(join(dir, 'work'), join(dir, 'history.jsonl'));
  const shown = screen.until('the input box', (chunk) => chunk.includes('Ask codey'));
  const exited = runTui(c, { stdin: keys, stdout: screen, stderr: screen, env: {}, patchConsole: false });
  await shown;

  const typeLine = async (line) => {
    keys.type(line);
    await tick();
    keys.type('\r');
  };
  /** Types `prompt` and Enter; resolves once the app has called run(). */
  const submit = (prompt) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`run() not called for ${prompt}`)), DEADLINE_MS);
      c.onRun = () => {
        clearTimeout(timer);
        resolve();
      };
      void typeLine(prompt);
    });
  /**
   * One scripted turn of `items` transcript items (1–4: the user's message, a streamed text, a bash
   * call with its output, a last text). With `wait`, resolves once the turn's last item is on screen
   * (markers have no spaces, so no line wrap splits them).
   */
  const turn = async (n, items = 4, wait = true) => {
    const marker = `task-${n}-done`;
    await submit(`please fix task-${n}-asked in src/file-${n}.ts`);
    c.emit({ type: 'request_start', request: 1, model: c.model });
    if (items >= 2) {
      const text = replyText(300, n) + (items === 2 ? marker : '');
      for (const d of deltasOf(text, 1000)) c.emit({ type: 'text_delta', text: d });
      c.emit({ type: 'text', text });
    }
    if (items >= 3) {
      const command = `npm test -- case-${n}`;
      const id = `toolu_${n}`;
      const named = { id, name: 'bash', displayName: 'Bash' };
      c.emit({
        type: 'tool_start',
        ...named,
        input: { command },
        summary: `Run: ${command}`,
        detail: command,
        shows: 'shell',
      });
      c.emit({
        type: 'tool_end',
        ...named,
        status: 'done',
        output: BASH_OUTPUT,
        display: { kind: 'shell', command, exitCode: 0, timedOut: false },
        durationMs: 40,
      });
    }
    c.turns = n + 1;
    c.emit({ type: 'usage', usage: usageOf(1), total: usageOf(n + 1) });
    if (items >= 4) {
      c.emit({ type: 'request_start', request: 2, model: c.model });
      for (const d of deltasOf(marker, 10)) c.emit({ type: 'text_delta', text: d });
      c.emit({ type: 'text', text: marker });
    }
    const seen = items === 1 ? `task-${n}-asked` : marker;
    const frame = wait ? screen.until(seen, (chunk) => chunk.includes(seen)) : tick();
    c.emit({ type: 'turn_end', reason: 'end_turn', stopReason: 'end_turn', text: marker, requests: 2 });
    c.finishRun?.();
    await frame;
  };
  const quit = async () => {
    await typeLine('/exit');
    await exited;
  };
  return { c, screen, submit, turn, quit };
}

/**
 * Streams `count` deltas into a new turn of `app`, one burst of BURST deltas per app frame, then
 * ends the turn. A burst's CPU time runs from its first delta until its frame is written. With
 * `gate`, each burst waits for the parent's go.
 */
async function stream(app, count, gate = false) {
  await app.submit('explain the whole design');
  if (gate) process.send({ ready: Math.ceil(count / BURST) + 1 });
  const deltas = deltasOf(replyText(count * 6, 1), count);
  const bytes0 = app.screen.bytes;
  const writes0 = app.screen.writes;
  const frames = [];
  let wallMs = 0; // from each burst's first delta to its frame, so waits for the parent do not count
  const timed = async (what, work, test) => {
    if (gate) await go();
    const frame = app.screen.until(what, test);
    const t = performance.now();
    const c0 = process.cpuUsage();
    work();
    await frame;
    const c = process.cpuUsage(c0);
    wallMs += performance.now() - t;
    if (gate) process.send({ done: true });
    return (c.user + c.system) / 1000;
  };
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < deltas.length; i += BURST) {
    const burst = deltas.slice(i, i + BURST);
    frames.push(
      await timed(`the frame of burst ${frames.length}`, () =>
        burst.forEach((d) => app.c.emit({ type: 'text_delta', text: d })),
      ),
    );
  }
  const end = 'design-explained';
  const full = `${deltas.join('')} ${end}`;
  const { c } = app;
  await timed(
    'the last frame',
    () => {
      c.emit({ type: 'text', text: full });
      c.emit({ type: 'turn_end', reason: 'end_turn', stopReason: 'end_turn', text: full, requests: 1 });
      c.finishRun?.();
    },
    (chunk) => chunk.includes(end),
  );
  const cpu = process.cpuUsage(cpu0);
  frames.sort((x, y) => x - y);
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    frameCpuMs: frames[Math.floor(frames.length / 2)],
    wallMs,
    bytes: app.screen.bytes - bytes0,
    writes: app.screen.writes - writes0,
    frames: frames.length + 1,
    deltas: deltas.length,
  };
}

/** Fills `app`'s transcript with exactly `items` finished items; the last turn is waited for. */
async function fill(app, items) {
  let made = 0;
  for (let n = 0; made < items; n++) {
    const k = Math.min(4, items - made);
    made += k;
    await app.turn(n, k, made === items);
  }
}

/**
 * The streaming cost with `items` finished items in the transcript. A throwaway app first fills
 * `warmItems` items and streams WARMUP_DELTAS deltas, untimed: the run for 10 items warms up on
 * 2,000 and the run for 2,000 on 10, so both have done the same work before the measured stream
 * (the JIT and the heap's sizing make later frames cheaper: measured cold, 10 items look dearer
 * than 2,000). One app per process: Ink keeps the root that owns <Static> in a module variable,
 * so a second live instance can lose its static output.
 */
async function render(items, warmItems) {
  const warm = await start();
  await fill(warm, warmItems);
  await stream(warm, WARMUP_DELTAS);
  await warm.quit();
  const app = await start();
  await fill(app, items);
  const result = { items, warmItems, ...(await stream(app, DELTAS, gated)) };
  await app.quit();
  return result;
}

/** `turns` full turns, each waited for on screen; RSS sampled every 20 ms and after each turn. */
async function memory(turns) {
  let peak = process.memoryUsage().rss;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
  const sampler = setInterval(sample, 20);
  const t0 = performance.now();
  const app = await start();
  const { rss, heapUsed } = process.memoryUsage();
  const atStart = { rss, heapUsed };
  for (let n = 0; n < turns; n++) {
    await app.turn(n, 4, true);
    sample();
  }
  const wallMs = performance.now() - t0;
  const pick = ({ rss, heapTotal, heapUsed, external }) => ({ rss, heapTotal, heapUsed, external });
  const after = pick(process.memoryUsage());
  let gcd;
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    gcd = pick(process.memoryUsage());
  }
  clearInterval(sampler);
  const bytes = app.screen.bytes;
  await app.quit();
  return { turns, peakRss: peak, atStart, after, gcd, bytes, wallMs };
}

const out =
  mode === 'render' ? await render(Number(countArg), Number(warmArg)) : await memory(Number(countArg));
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);

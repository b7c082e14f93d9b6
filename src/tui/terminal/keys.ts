/**
 * Key routing. Ink subscribes a `useInput` handler (and applies `isActive`) in a passive effect,
 * which React may run a frame or more after the component is painted: keys typed just after a
 * prompt appears would be lost, and keys typed quickly would reach a handler from an older render.
 * So the app subscribes once, at the root, and hands each key to the newest active handler; handlers
 * register and update in layout effects, which run before the frame is painted. Each chunk ink reads
 * is split into the keys it holds first (`key-chunks.ts`).
 */
import { useInput, type Key } from 'ink';
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useRef } from 'react';

import { createKeySplitter } from './key-chunks';

export { PASTE_END, PASTE_START } from './key-chunks';

export type KeyHandler = (input: string, key: Key) => void;

/**
 * Is `input` typed text that arrived in one read with its Enter ("ls\r": a fast typist, a tmux
 * send-keys)? Then it is sent at once; any other chunk with line breaks is a paste and stays text.
 */
export function endsWithEnter(input: string): boolean {
  return input.length > 1 && input.indexOf('\r') === input.length - 1 && !input.includes('\n');
}

interface Entry {
  handler: KeyHandler;
  isActive: boolean;
}

/** How often (ms) the router notes that the event loop is running. */
const BEAT_MS = 100;
/**
 * A gap (ms) without a beat after which the app counts as stalled: keys typed during it waited in
 * the terminal. Far above any timer delay of a loaded machine, far below the freezes it guards
 * against (a prompt that takes seconds to draw).
 */
const STALL_MS = 1000;

/** Handlers in mount order; the last active one gets the key. */
export interface KeyRouter {
  entries: Entry[];
  /** `performance.now()` of the latest beat (ms). */
  beat: number;
}

const KeyRouterContext = createContext<KeyRouter | null>(null);

export const KeyRouterProvider = KeyRouterContext.Provider;

/** Creates the app's router and subscribes it to ink's input, once. */
export function useKeyRouter(): KeyRouter {
  const router = useRef<KeyRouter>({ entries: [], beat: performance.now() }).current;
  useEffect(() => {
    const timer = setInterval(() => {
      router.beat = performance.now();
    }, BEAT_MS);
    timer.unref();
    return () => clearInterval(timer);
  }, [router]);
  const split = useRef(createKeySplitter()).current;
  const route = useCallback(
    (chunk: string, chunkKey: Key) => {
      for (const [input, key] of split(chunk, chunkKey)) {
        // The newest active handler now: a key may have opened or closed a prompt.
        const entry = router.entries.findLast((e) => e.isActive);
        entry?.handler(input, key);
      }
    },
    [router, split],
  );
  useInput(route);
  return router;
}

/**
 * Receives keys while `isActive` and no newer active handler exists. Outside a router (a component
 * rendered alone, in a test) it subscribes to ink directly.
 */
export function useKeys(handler: KeyHandler, isActive = true): void {
  const router = useContext(KeyRouterContext);
  const entry = useRef<Entry>({ handler, isActive }).current;
  useLayoutEffect(() => {
    entry.handler = handler;
    entry.isActive = isActive;
  });
  useLayoutEffect(() => {
    if (!router) return;
    router.entries.push(entry);
    return () => {
      router.entries = router.entries.filter((e) => e !== entry);
    };
  }, [router, entry]);
  const split = useRef(createKeySplitter()).current;
  const direct = useCallback(
    (chunk: string, chunkKey: Key) => {
      for (const [input, key] of split(chunk, chunkKey)) if (entry.isActive) entry.handler(input, key);
    },
    [entry, split],
  );
  useInput(direct, { isActive: router === null });
}

/**
 * A function telling whether the event loop has just been stalled (no beat for {@link STALL_MS}),
 * so keys read now may have been typed long before. Always false outside a router.
 */
export function useStallCheck(): () => boolean {
  const router = useContext(KeyRouterContext);
  return useCallback(() => router !== null && performance.now() - router.beat > STALL_MS, [router]);
}

import { setFlagsFromString } from 'node:v8';

/**
 * Has V8 compile WebAssembly with its baseline compiler only (`--liftoff-only`), from now on: Node's
 * fetch (undici's HTTP parser) and Ink's layout engine (yoga) are WebAssembly, and the optimising
 * tier-up costs about 27 MB and keeps a short run alive while a background thread finishes
 * compiling code the run no longer needs.
 *
 * Call it just before the first request or the first import of Ink, not at start-up: once a V8 flag
 * changes, the code cache Node ships for its own modules no longer matches and every built-in module
 * loaded afterwards is compiled from source (about 40 ms for what fetch loads). So Node's fetch is
 * loaded first (`Headers` loads the same module), and the flag set after it. Calling it again does
 * nothing more.
 */
export function baselineWasmOnly(): void {
  void new Headers();
  setFlagsFromString('--liftoff-only');
}

import { defineConfig } from 'tsup';

// One ESM build of our code, split into chunks so that the lazy imports stay lazy: `--version` and
// `-p` never load ink or react, `--help` never loads the SDK.
//
// Start-up is mostly module loading (Node 20 has no compile cache), so the libraries on the start-up
// paths are bundled into our chunks: fewer files for the ESM loader to resolve and read (yaml and
// picomatch load at every start, execa at the first command; unbundled they are ~250 files; the
// start-up-bundle e2e test keeps them in). What stays external loads only when a feature needs it
// (undici for a proxy, cosmiconfig for a project file, htmlparser2 for web_fetch...). React runs
// its production build (`NODE_ENV` fixed at build time): cheaper frames and less memory than the
// development build a CLI would otherwise get.
export default defineConfig({
  // eval-guard: loaded with `node --import` into the codey of an eval run (src/eval/net-guard.ts).
  // held-keys: the launcher's first import in a terminal, before the CLI loads (src/cli/held-keys.ts).
  entry: {
    cli: 'src/cli/main.ts',
    'eval-guard': 'src/eval/net-guard.ts',
    'held-keys': 'src/cli/held-keys.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  outDir: 'dist',
  splitting: true,
  clean: true,
  sourcemap: true,
  dts: false,
  noExternal: [
    'zod',
    'commander',
    '@anthropic-ai/sdk',
    'ink',
    'react',
    /^react\//,
    'react-reconciler',
    'scheduler',
    'execa',
    'yaml',
    'picomatch',
    'ignore',
  ],
  // Only loaded when DEV=true (ink's devtools hook), never installed.
  external: ['react-devtools-core'],
  define: { 'process.env.NODE_ENV': '"production"' },
  banner: {
    // CommonJS dependencies bundled into ESM need `require` (for Node's own modules).
    js: "import { createRequire as __codeyRequire } from 'node:module'; const require = __codeyRequire(import.meta.url);",
  },
});

import { defineConfig } from 'tsup';

// One ESM bundle of our code; dependencies stay external so that the lazy
// `import('ink')` and `import('@anthropic-ai/sdk')` in src/cli stay lazy.
export default defineConfig({
  entry: { cli: 'src/cli/main.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  outDir: 'dist',
  splitting: true,
  clean: true,
  sourcemap: true,
  dts: false,
  noExternal: ['zod', 'commander', '@anthropic-ai/sdk'],
  banner: {
    js: "import { createRequire as __codeyRequire } from 'node:module'; const require = __codeyRequire(import.meta.url);",
  },
});

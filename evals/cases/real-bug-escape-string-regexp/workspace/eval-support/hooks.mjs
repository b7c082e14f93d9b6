// Module resolve hook: `ava` is ./ava.mjs; everything else resolves as usual.
export async function resolve(specifier, context, next) {
  if (specifier === 'ava') return { url: new URL('./ava.mjs', import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}

/**
 * The preload a generated project's `npm start` uses (`tsoperator/compile-cache`): TypeScript
 * contenders run with it, so they start as an operator author's process starts.
 */
export const COMPILE_CACHE_PRELOAD = new URL('../../bin/compile-cache.js', import.meta.url).href;

/**
 * zod compiles its object checks with `new Function` once it has probed that it may; our Content-Security-
 * Policy forbids eval, so the probe is refused and the browser reports a violation on every page whose forms
 * load their rules. jitless skips both. zod keeps its configuration on globalThis.__zod_globalConfig (shared
 * by every copy of zod, read when a schema is built), so setting it here, before any schema exists, spares the
 * first screen the part of zod that `z.config` would bring. zod-jitless.test.ts checks zod still reads it.
 */
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
// the same object zod holds, if a copy has already loaded
(scope.__zod_globalConfig ??= {}).jitless = true;

// imported for its effect only (src/main.tsx, first)
export {};

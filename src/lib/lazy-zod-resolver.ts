/**
 * The player's forms check what was typed with the shared zod schemas (src/domain), through this resolver.
 * zod is the largest library the forms use, and a form needs its rules only once something is submitted:
 * the schema and zod load after the page's first paint instead of with it, so the forms paint at once and
 * their first check waits for the rules only if they have not arrived yet. (The back office is one chunk
 * loaded on demand, and its forms use zodResolver directly.)
 */
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { afterFirstPaint } from '../components/ui/deferred-module.ts';

/**
 * `zodResolver(schema)` for the schema `load` imports, e.g.
 * `lazyZodResolver(() => import('../domain/schemas.ts').then((schemas) => schemas.loginSchema))`.
 * Loading starts after the first paint; a failed load is tried again on the next check.
 */
export function lazyZodResolver<In extends FieldValues, Out>(
  load: () => Promise<z.ZodType<Out, In>>,
): Resolver<In, unknown, Out> {
  let resolver: Promise<Resolver<In, unknown, Out>> | undefined;
  const ready = () =>
    (resolver ??= Promise.all([import('@hookform/resolvers/zod'), load()]).then(
      ([{ zodResolver }, schema]) => zodResolver<In, unknown, Out>(schema),
      (error: unknown) => {
        resolver = undefined;
        throw error;
      },
    ));
  afterFirstPaint(() => void ready().catch(() => undefined));
  return async (values, context, options) => (await ready())(values, context, options);
}

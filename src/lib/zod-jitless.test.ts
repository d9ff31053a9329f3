import { describe, expect, it } from 'vitest';

describe('zod without eval', () => {
  it('builds schemas without new Function once zod-jitless has run, as the SPA entry runs it first', async () => {
    await import('./zod-jitless.ts');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    const evaluated: string[] = [];
    const original = globalThis.Function;
    globalThis.Function = new Proxy(original, {
      construct(target, args) {
        evaluated.push(String(args.at(-1)));
        return Reflect.construct(target, args);
      },
    });
    try {
      const schema = z.object({ amount: z.number(), period: z.string() });
      expect(schema.parse({ amount: 500, period: 'daily' })).toEqual({ amount: 500, period: 'daily' });
    } finally {
      globalThis.Function = original;
    }
    expect(evaluated).toEqual([]);
  });
});

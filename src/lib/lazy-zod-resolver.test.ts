import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazyZodResolver } from './lazy-zod-resolver.ts';

const schema = z.object({ amount: z.coerce.number().min(1000, 'Minimum bet amount is ₹1000') });
const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe('lazy zod resolver', () => {
  it("answers as zodResolver does once the schema has loaded: the parsed values, or the schema's message", async () => {
    const resolver = lazyZodResolver(async () => schema);
    expect(await resolver({ amount: '1500' }, undefined, options)).toEqual({ values: { amount: 1500 }, errors: {} });
    const refused = await resolver({ amount: '500' }, undefined, options);
    expect(refused.values).toEqual({});
    expect(refused.errors.amount?.message).toBe('Minimum bet amount is ₹1000');
  });

  it('loads the schema again on the next check when a load failed (a dropped connection)', async () => {
    let attempts = 0;
    const resolver = lazyZodResolver(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('network');
      return schema;
    });
    // the load after the first paint may already have failed; a check then fails or loads it again
    await Promise.resolve(resolver({ amount: '1500' }, undefined, options)).catch(() => undefined);
    expect(await resolver({ amount: '1500' }, undefined, options)).toEqual({ values: { amount: 1500 }, errors: {} });
    expect(attempts).toBe(2);
  });
});

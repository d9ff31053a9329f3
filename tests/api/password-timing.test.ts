/**
 * A login answers in the same time whatever the stored hash is: a seed account's disabled (non-scrypt) hash
 * is verified against UNUSABLE_HASH anyway, so timing does not tell which accounts are disabled.
 */
import { describe, expect, it } from 'vitest';
import { UNUSABLE_HASH, verifyPassword } from '../../edge-functions/_shared/password.ts';

async function median(run: () => Promise<unknown>, times = 5): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(times / 2)];
}

describe('password verification timing', () => {
  it('spends the scrypt work on a disabled (non-scrypt) hash too, and never matches it', async () => {
    expect(await verifyPassword('demo1234', '!disabled-seed-admin')).toBe(false);
    expect(await verifyPassword('demo1234', 'scrypt$0$8$1$AAAA$AAAA')).toBe(false);
    const unusable = await median(() => verifyPassword('secret-123', UNUSABLE_HASH));
    const disabled = await median(() => verifyPassword('secret-123', '!disabled-demo-user'));
    // without the fix the disabled hash returns at once (well under a millisecond)
    expect(disabled).toBeGreaterThan(unusable * 0.5);
  });
});

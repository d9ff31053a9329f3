/**
 * Password verification does the same scrypt work whatever the stored hash is: a seed account's disabled
 * (non-scrypt) hash is verified against UNUSABLE_HASH anyway, so a login's duration does not tell which
 * accounts are disabled. Counted, not timed: scrypt (node:crypto) is wrapped to count its calls.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const scryptCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  const scrypt = (...args: Parameters<typeof crypto.scrypt>) => {
    scryptCalls.count++;
    return (crypto.scrypt as (...a: unknown[]) => void)(...args);
  };
  return { ...crypto, default: { ...crypto, scrypt }, scrypt };
});

const { hashPassword, verifyPassword, UNUSABLE_HASH } = await import('../../edge-functions/_shared/password.ts');

describe('verifyPassword', () => {
  afterEach(() => {
    scryptCalls.count = 0;
  });

  it('matches the password a hash was made from, and no other', async () => {
    const stored = await hashPassword('secret-123');
    expect(await verifyPassword('secret-123', stored)).toBe(true);
    expect(await verifyPassword('secret-124', stored)).toBe(false);
  });

  it.each([
    ['a real hash', 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAA'],
    ['UNUSABLE_HASH', UNUSABLE_HASH],
    ['a disabled seed hash', '!disabled-seed-admin'],
    ['a hash with zero cost', 'scrypt$0$8$1$AAAA$AAAA'],
    ['an empty hash', ''],
  ])('runs scrypt exactly once for %s and never matches it', async (_name, stored) => {
    expect(await verifyPassword('demo1234', stored)).toBe(false);
    expect(scryptCalls.count).toBe(1);
  });
});

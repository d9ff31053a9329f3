/**
 * Password verification does the same scrypt work whatever the stored hash is: a seed account's disabled
 * (non-scrypt) hash is verified against UNUSABLE_HASH anyway, so a login's duration does not tell which
 * accounts are disabled. Counted, not timed: scrypt (node:crypto) is wrapped to count its calls.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const scryptCalls = vi.hoisted(() => ({ count: 0, running: 0, most: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  const scrypt = (...args: Parameters<typeof crypto.scrypt>) => {
    scryptCalls.count++;
    scryptCalls.most = Math.max(scryptCalls.most, ++scryptCalls.running);
    const done = args.pop() as (...result: unknown[]) => void;
    return (crypto.scrypt as (...a: unknown[]) => void)(...args, (...result: unknown[]) => {
      scryptCalls.running--;
      done(...result);
    });
  };
  return { ...crypto, default: { ...crypto, scrypt }, scrypt };
});

const { hashPassword, verifyPassword, UNUSABLE_HASH, HASHES_AT_ONCE } =
  await import('../../edge-functions/_shared/password.ts');
const { Limiter } = await import('../../edge-functions/_shared/limiter.ts');

describe('verifyPassword', () => {
  afterEach(() => {
    scryptCalls.count = 0;
    scryptCalls.most = 0;
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

  it('runs at most HASHES_AT_ONCE hashes at once however many sign-ins come together (each takes 16 MiB while it runs)', async () => {
    const stored = await hashPassword('secret-123');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, n) => verifyPassword(n % 2 ? 'secret-123' : 'wrong-pass', stored)),
    );
    expect(answers.filter(Boolean)).toHaveLength(6);
    expect(scryptCalls.count).toBe(13);
    expect(scryptCalls.most).toBe(HASHES_AT_ONCE);
  });
});

describe('Limiter', () => {
  it('runs at most `concurrency` tasks at once, the others in order, and refuses beyond its queue with 503 and Retry-After', async () => {
    const limiter = new Limiter(2, 3);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const task = (n: number) =>
      limiter.run(async () => {
        started.push(n);
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return n;
      });
    const accepted = [1, 2, 3, 4, 5].map(task);
    expect(limiter.load).toEqual({ running: 2, waiting: 3 });
    await expect(task(6)).rejects.toMatchObject({
      status: 503,
      message: 'Service temporarily unavailable',
      retryAfter: 1,
    });
    expect(await Promise.all(accepted)).toEqual([1, 2, 3, 4, 5]);
    expect({ started, most, load: limiter.load }).toEqual({
      started: [1, 2, 3, 4, 5],
      most: 2,
      load: { running: 0, waiting: 0 },
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { Match } from '../domain/entities.ts';
import { keepNewerMatches } from './cache-sync.ts';

const match = (id: number, version: number, score: string) => ({ id, version, team1_score: score }) as unknown as Match;

describe('a read never takes a page back to an older match', () => {
  it('keeps the cached match when a shared cache answers with an older version', () => {
    const pushed = match(7, 5, '88/3');
    expect(keepNewerMatches(pushed, match(7, 4, '80/3'))).toBe(pushed);
    expect(keepNewerMatches(pushed, match(7, 6, '92/3'))).toEqual(match(7, 6, '92/3'));
    expect(keepNewerMatches(undefined, match(7, 4, '80/3'))).toEqual(match(7, 4, '80/3'));
    expect(keepNewerMatches(pushed, null)).toBeNull(); // the match is gone: the read says so
  });

  it('keeps each newer match of a list in the order and membership the read gives', () => {
    const cached = [match(1, 3, '10/0'), match(2, 9, '150/4')];
    const fetched = [match(2, 8, '140/4'), match(3, 1, '0/0')];
    expect(keepNewerMatches(cached, fetched)).toEqual([match(2, 9, '150/4'), match(3, 1, '0/0')]);
  });
});

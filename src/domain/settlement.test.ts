import { describe, expect, it } from 'vitest';
import { betResultNotice, settlementLabel } from './settlement.ts';

const result = { match_id: 7, match: 'MI vs CSK', team: 'Mumbai Indians', amount: 6000 } as const;

describe('settlement texts', () => {
  it('tells a winner what they won, with the match', () => {
    expect(betResultNotice({ ...result, outcome: 'won' })).toEqual({
      title: 'You won ₹6,000',
      description: 'MI vs CSK',
    });
  });

  it('tells a loser which bet lost', () => {
    expect(betResultNotice({ ...result, outcome: 'lost', amount: 2000 })).toEqual({
      title: 'Your bet on Mumbai Indians lost',
      description: 'MI vs CSK',
    });
  });

  it('tells a player of an abandoned match what came back', () => {
    expect(betResultNotice({ ...result, outcome: 'refunded', amount: 2000 })).toEqual({
      title: 'Your stake of ₹2,000 was refunded',
      description: 'MI vs CSK was abandoned',
    });
  });

  it('tells a player that the result of a match was corrected, and what their bet is now', () => {
    expect(betResultNotice({ ...result, outcome: 'lost', amount: 2000, corrected: true })).toEqual({
      title: 'The result of MI vs CSK was corrected',
      description: 'Your bet on Mumbai Indians lost',
    });
    expect(betResultNotice({ ...result, outcome: 'won', corrected: true })).toEqual({
      title: 'The result of MI vs CSK was corrected',
      description: 'You won ₹6,000',
    });
  });

  it("shows an admin the settlement's progress", () => {
    expect(settlementLabel({ state: 'settling', settled: 4000, total: 100000 })).toBe(
      'Settling bets: 4,000 of 1,00,000',
    );
    expect(settlementLabel({ state: 'settled', settled: 100000, total: 100000 })).toBe('All 1,00,000 bets settled');
    expect(settlementLabel({ state: 'settled', settled: 0, total: 0 })).toBe('No bets to settle');
  });
});

import { describe, expect, it } from 'vitest';
import { fallbackTeam, FIXED_TEAMS } from './teams.ts';

describe('fixed team table', () => {
  it('holds the ten fixed teams with unique ids and short names', () => {
    expect(FIXED_TEAMS).toHaveLength(10);
    expect(new Set(FIXED_TEAMS.map((team) => team.short_name)).size).toBe(10);
    expect(fallbackTeam(3)).toEqual({ id: 3, name: 'Royal Challengers Bangalore', short_name: 'RCB' });
  });

  it("names unknown ids 'Team {id}' and 'T{id}'", () => {
    expect(fallbackTeam(42)).toEqual({ id: 42, name: 'Team 42', short_name: 'T42' });
  });
});

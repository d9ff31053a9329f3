/**
 * The fixed team table. The player and admin screens fall back to it when a match carries no team
 * objects; the database seeds the same ten teams (a test asserts they agree).
 */
export interface TeamRef {
  id: number;
  name: string;
  short_name: string;
}

export const FIXED_TEAMS: readonly TeamRef[] = [
  { id: 1, name: 'Mumbai Indians', short_name: 'MI' },
  { id: 2, name: 'Chennai Super Kings', short_name: 'CSK' },
  { id: 3, name: 'Royal Challengers Bangalore', short_name: 'RCB' },
  { id: 4, name: 'Kolkata Knight Riders', short_name: 'KKR' },
  { id: 5, name: 'Delhi Capitals', short_name: 'DC' },
  { id: 6, name: 'Punjab Kings', short_name: 'PBKS' },
  { id: 7, name: 'Rajasthan Royals', short_name: 'RR' },
  { id: 8, name: 'Sunrisers Hyderabad', short_name: 'SRH' },
  { id: 9, name: 'Gujarat Titans', short_name: 'GT' },
  { id: 10, name: 'Lucknow Super Giants', short_name: 'LSG' },
];

/** The team of the fixed table, or 'Team {id}' / 'T{id}' for an unknown id. */
export function fallbackTeam(id: number): TeamRef {
  return FIXED_TEAMS.find((team) => team.id === id) ?? { id, name: `Team ${id}`, short_name: `T${id}` };
}

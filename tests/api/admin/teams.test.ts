/**
 * The teams, /api/admin/teams (edge-functions/api/routes/admin/teams.ts), over HTTP: the list the admin's match
 * forms offer. The teams are reference data the migrations seed; who may read them is in authorization.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { apiSuite } from '../../support/api.ts';

describe('teams', () => {
  const api = apiSuite({ admin: true });

  it('lists the ten seeded teams, in id order, with their names', async () => {
    const answer = await api.admin.client.get('/api/admin/teams');
    expect(answer.status).toBe(200);
    // other test files may add teams of their own to the same database meanwhile: look for the seeded ones only
    const teams = answer.body as { id: number; name: string; short_name: string }[];
    expect(teams.map((team) => team.id)).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    expect(teams.map((team) => team.id)).toEqual(teams.map((team) => team.id).sort((a, b) => a - b));
    expect(teams.find((team) => team.id === 1)).toMatchObject({ name: 'Mumbai Indians', short_name: 'MI' });
    expect(teams.find((team) => team.id === 10)).toMatchObject({ name: 'Lucknow Super Giants', short_name: 'LSG' });
  });
});

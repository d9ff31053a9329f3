/** The teams (/api/admin/teams), for the admin's match forms. */
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { teamEntity } from '@/domain/entities.ts';
import { answer } from '../../context.ts';
import { errors, json, router } from '../../openapi.ts';
import { teamList } from '../../queries.ts';

const teamsRoute = createRoute({
  operationId: 'adminListTeams',
  method: 'get',
  path: '/',
  tags: ['admin: matches'],
  summary: 'The teams',
  responses: { 200: json(z.array(teamEntity), 'Teams'), ...errors(401, 403) },
});

export function adminTeamRoutes() {
  const app = router();
  app.openapi(teamsRoute, (c) => answer<typeof teamsRoute>(c, 'reader', (q) => teamList(q)));
  return app;
}

/**
 * The signed-in user (/api/user): GET answers them; PATCH changes their name or phone number (a phone number
 * belongs to one account: app.update_profile).
 */
import { createRoute } from '@hono/zod-openapi';
import { userEntity } from '@/domain/entities.ts';
import { profileSchema } from '@/domain/schemas.ts';
import { answer } from '../context.ts';
import { errors, json, jsonBody, router } from '../openapi.ts';
import { userById } from '../queries.ts';

const getUserRoute = createRoute({
  operationId: 'getUser',
  method: 'get',
  path: '/',
  tags: ['auth'],
  summary: 'The signed-in user',
  responses: { 200: json(userEntity, 'The signed-in user'), ...errors(401) },
});

const updateUserRoute = createRoute({
  operationId: 'updateUser',
  method: 'patch',
  path: '/',
  tags: ['auth'],
  summary: "Change the signed-in user's name or phone number (one account per phone number)",
  request: { body: jsonBody(profileSchema, { name: 'Asha Patel', phone: '9876543210' }) },
  responses: { 200: json(userEntity, 'The user after the change'), ...errors(400, 401, 409) },
});

export function userRoutes() {
  const app = router('user');
  app.openapi(getUserRoute, (c) => answer<typeof getUserRoute>(c, 'reader', (q) => userById(q)));
  app.openapi(updateUserRoute, (c) => {
    const changes = c.req.valid('json');
    return answer<typeof updateUserRoute>(
      c,
      'service',
      (q) => q`select app.user_json(u)::text as body from app.update_profile(${q.json(changes)}) u`,
    );
  });

  return app;
}

import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { aUser } from '../test/fixtures.ts';
import { mockApi, renderWithProviders } from '../test/render.tsx';
import { RequireAuth } from './require-auth.tsx';
import { AuthRoute } from '../features/auth/routes/auth.tsx';

function renderAt(route: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/" element={<h1>Home page</h1>} />
      <Route path="/auth" element={<AuthRoute />} />
      <Route element={<RequireAuth />}>
        <Route path="/wallet" element={<h1>Wallet page</h1>} />
      </Route>
    </Routes>,
    { route },
  );
}

async function signIn(user: ReturnType<typeof renderAt>['user']) {
  await user.type(await screen.findByLabelText('Username'), 'asha');
  await user.type(screen.getByLabelText('Password'), 'secret123');
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('sign-in page', () => {
  it('returns to the guarded page the visitor came from after signing in', async () => {
    mockApi({
      'GET /api/user': { status: 401, body: { message: 'Not signed in' } },
      'POST /api/login': { body: aUser() },
    });
    const { user } = renderAt('/wallet');
    await signIn(user);
    expect(await screen.findByRole('heading', { name: 'Wallet page' })).toBeInTheDocument();
  });

  it('goes to / after signing in when no page was saved', async () => {
    mockApi({
      'GET /api/user': { status: 401, body: { message: 'Not signed in' } },
      'POST /api/login': { body: aUser() },
    });
    const { user } = renderAt('/auth');
    await signIn(user);
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
  });
});

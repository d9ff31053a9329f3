import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { aUser } from '../test/fixtures.ts';
import { mockApi, renderWithProviders } from '../test/render.tsx';
import { RequireAuth } from './require-auth.tsx';

function renderAt(route: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/" element={<h1>Home page</h1>} />
      <Route path="/auth" element={<h1>Sign-in page</h1>} />
      <Route element={<RequireAuth />}>
        <Route path="/wallet" element={<h1>Wallet page</h1>} />
      </Route>
      <Route element={<RequireAuth adminOnly />}>
        <Route path="/admin/*" element={<h1>Admin page</h1>} />
      </Route>
    </Routes>,
    { route },
  );
}

describe('route guard', () => {
  it('shows a spinner while the current user loads', async () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    renderAt('/wallet');
    expect(screen.getByRole('status', { name: 'Loading your account' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Wallet page' })).not.toBeInTheDocument();
  });

  it('sends a visitor who is not signed in to /auth', async () => {
    mockApi({ 'GET /api/user': { status: 401, body: { message: 'Not signed in' } } });
    renderAt('/wallet');
    expect(await screen.findByRole('heading', { name: 'Sign-in page' })).toBeInTheDocument();
  });

  it('lets a signed-in player through', async () => {
    mockApi({ 'GET /api/user': { body: aUser() } });
    renderAt('/wallet');
    expect(await screen.findByRole('heading', { name: 'Wallet page' })).toBeInTheDocument();
  });

  it('sends a non-admin on an admin route to /', async () => {
    mockApi({ 'GET /api/user': { body: aUser({ role: 'user' }) } });
    renderAt('/admin/users');
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
  });

  it('lets an admin into admin routes', async () => {
    mockApi({ 'GET /api/user': { body: aUser({ role: 'admin' }) } });
    renderAt('/admin');
    expect(await screen.findByRole('heading', { name: 'Admin page' })).toBeInTheDocument();
  });

  it('sends any other non-admin role (Staff) on an admin route to /', async () => {
    mockApi({ 'GET /api/user': { body: aUser({ role: 'staff' as never }) } });
    renderAt('/admin/users');
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
  });
});

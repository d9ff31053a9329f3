import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aUser } from '@/test/fixtures.ts';
import { mockApi, renderWithProviders } from '@/test/render.tsx';
import { LoginForm } from './login-form.tsx';
import { RegisterForm } from './register-form.tsx';

describe('login form', () => {
  it('shows the minimum length messages for username and password', async () => {
    const calls = mockApi({});
    const { user } = renderWithProviders(<LoginForm />);
    await user.type(screen.getByLabelText('Username'), 'ab');
    await user.type(screen.getByLabelText('Password'), '12345');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('welcomes the user back by name', async () => {
    const calls = mockApi({ 'POST /api/login': { body: aUser() } });
    const { user } = renderWithProviders(<LoginForm />);
    await user.type(screen.getByLabelText('Username'), 'asha');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Login successful')).toBeInTheDocument();
    expect(screen.getByText('Welcome back, Asha Rao!')).toBeInTheDocument();
    expect(calls[0].body).toEqual({ username: 'asha', password: 'secret123' });
  });

  it('asks for the authenticator code when the server says mfa_required, and signs in with it', async () => {
    const mfa = { message: 'Enter the 6-digit code from your authenticator app', mfa_required: true };
    const calls = mockApi({
      'POST /api/login': (call) =>
        (call.body as { totp_code?: string }).totp_code === '123456' ? { body: aUser() } : { status: 401, body: mfa },
    });
    const { user } = renderWithProviders(<LoginForm />);
    await user.type(screen.getByLabelText('Username'), 'asha');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument();
    expect(screen.queryByText('Login failed')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Login successful')).toBeInTheDocument();
    expect(calls[1].body).toEqual({ username: 'asha', password: 'secret123', totp_code: '123456' });
  });

  it("shows 'Login failed' with '{status}: {message}'", async () => {
    mockApi({ 'POST /api/login': { status: 401, body: { message: 'Invalid username or password' } } });
    const { user } = renderWithProviders(<LoginForm />);
    await user.type(screen.getByLabelText('Username'), 'asha');
    await user.type(screen.getByLabelText('Password'), 'wrongpass');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByText('401: Invalid username or password')).toBeInTheDocument();
  });
});

describe('register form', () => {
  it('shows the messages for name, username, email and password', async () => {
    const calls = mockApi({});
    const { user } = renderWithProviders(<RegisterForm />);
    await user.type(screen.getByLabelText('Full Name'), 'A');
    await user.type(screen.getByLabelText('Username'), 'ab');
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), '123');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('registers with phone and referral code optional and welcomes the user to the product', async () => {
    const calls = mockApi({ 'POST /api/register': { status: 201, body: aUser() } });
    const { user } = renderWithProviders(<RegisterForm />);
    await user.type(screen.getByLabelText('Full Name'), 'Asha Rao');
    await user.type(screen.getByLabelText('Username'), 'asha');
    await user.type(screen.getByLabelText('Email'), 'asha@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret123');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Registration successful')).toBeInTheDocument();
    expect(screen.getByText(/cricket-league betting app, Asha Rao!/)).toBeInTheDocument();
    expect(calls[0].body).toEqual({
      name: 'Asha Rao',
      username: 'asha',
      email: 'asha@example.com',
      password: 'secret123',
      phone: null,
      referral_code: null,
    });
  });
});

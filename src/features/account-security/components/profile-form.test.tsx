import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aUser } from '@/test/fixtures.ts';
import { mockApi, renderWithProviders, writes } from '@/test/render.tsx';
import { ProfileForm } from './profile-form.tsx';

describe('profile form', () => {
  it('saves the name and phone number, and says when the number is another account’s', async () => {
    let answer = { status: 409, body: { message: 'This phone number is already in use' } as object };
    const calls = mockApi({ 'PATCH /api/user': () => answer });
    const { user } = renderWithProviders(<ProfileForm user={aUser({ phone: '+91 90000 00001' })} />);
    const phone = screen.getByRole('textbox', { name: 'Phone (optional)' });
    await user.clear(phone);
    await user.type(phone, '98765 43210');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Failed to update profile')).toBeInTheDocument();
    expect(screen.getByText('409: This phone number is already in use')).toBeInTheDocument();

    answer = { status: 200, body: aUser({ phone: null }) };
    await user.clear(phone);
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(writes(calls).map((call) => call.body)).toEqual([
      { name: 'Asha Rao', phone: '98765 43210' },
      { name: 'Asha Rao', phone: null },
    ]);
  });

  it('refuses a name shorter than 2 characters and sends nothing', async () => {
    const calls = mockApi({});
    const { user } = renderWithProviders(<ProfileForm user={aUser()} />);
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'A');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Name must be at least 2 characters')).toBeInTheDocument();
    expect(writes(calls)).toEqual([]);
  });
});

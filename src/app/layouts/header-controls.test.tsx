import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aUser } from '@/test/fixtures.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { UserMenuControl } from './header-controls.tsx';

describe('the header user menu, loaded after the first paint', () => {
  it('opens on a click whose press began on the stand-in before the real menu arrived', async () => {
    const { user } = renderWithProviders(<UserMenuControl user={aUser({ name: 'Ravi Kumar' })} />);
    const standIn = screen.getByRole('button', { name: 'User menu for Ravi Kumar' });

    await user.pointer({ keys: '[MouseLeft>]', target: standIn });
    // the real menu's code arrives while the button is held down
    await act(async () => {
      await import('./user-menu.tsx');
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    expect(standIn).toBeInTheDocument();

    await user.pointer({ keys: '[/MouseLeft]', target: standIn });
    expect(await screen.findByRole('menuitem', { name: 'Responsible gambling' })).toBeVisible();
  });
});

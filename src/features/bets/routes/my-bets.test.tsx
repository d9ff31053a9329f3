import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderWithProviders } from '../../../test/render.tsx';
import { MyBetsRoute } from './my-bets.tsx';

describe('my bets page', () => {
  it("shows the inline error and the destructive 'Error loading bets' toast when the bets fail to load", async () => {
    mockApi({ 'GET /api/bets': { status: 500, body: { message: 'boom' } } });
    renderWithProviders(<MyBetsRoute />);
    expect(await screen.findByText('Error loading bets. Please try again later.')).toBeInTheDocument();
    const toastTitle = await screen.findByText('Error loading bets');
    expect(toastTitle.closest('[data-variant]')).toHaveAttribute('data-variant', 'destructive');
  });
});

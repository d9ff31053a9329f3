import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aUser } from '@/test/fixtures.ts';
import { mockApi, renderWithProviders } from '@/test/render.tsx';
import { Header } from './header.tsx';

describe('header balance chip', () => {
  it('keeps the wallet balance and shows the pending withdrawals beside it', async () => {
    mockApi({ 'GET /api/user': { body: aUser({ wallet_balance: 5000, pending_withdrawals: 1500 }) } });
    renderWithProviders(<Header />);
    expect(await screen.findByTestId('balance-chip')).toHaveTextContent('₹5,000');
    expect(screen.getByTestId('pending-withdrawals')).toHaveTextContent('₹1,500 pending');
  });

  it('shows no pending withdrawals when there are none', async () => {
    mockApi({ 'GET /api/user': { body: aUser({ wallet_balance: 5000 }) } });
    renderWithProviders(<Header />);
    expect(await screen.findByTestId('balance-chip')).toHaveTextContent('₹5,000');
    expect(screen.queryByTestId('pending-withdrawals')).not.toBeInTheDocument();
  });
});

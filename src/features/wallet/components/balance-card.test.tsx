import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aUser } from '@/test/fixtures.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { BalanceCard } from './balance-card.tsx';

describe('balance card', () => {
  it('shows the wallet balance and, with pending withdrawals, what is available', () => {
    renderWithProviders(<BalanceCard user={aUser({ wallet_balance: 5000, pending_withdrawals: 2000 })} />);
    expect(screen.getByTestId('wallet-balance')).toHaveTextContent('₹5,000');
    expect(screen.getByTestId('available-balance')).toHaveTextContent(
      'Available: ₹3,000 (₹2,000 held for pending withdrawals)',
    );
  });

  it('shows the wallet balance alone when nothing is pending', () => {
    renderWithProviders(<BalanceCard user={aUser({ wallet_balance: 5000 })} />);
    expect(screen.getByTestId('wallet-balance')).toHaveTextContent('₹5,000');
    expect(screen.queryByTestId('available-balance')).not.toBeInTheDocument();
  });
});

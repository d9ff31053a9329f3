import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { aMatch, aUser, someLimits } from '@/test/fixtures.ts';
import { idempotencyKeyOf, mockApi, renderWithProviders, writes } from '@/test/render.tsx';
import { formatDateTime } from '@/domain/money.ts';
import { BetSlip } from './bet-slip.tsx';

function setup(balance = 5000, pending = 0) {
  const calls = mockApi({ 'POST /api/bets': { status: 201, body: { id: 1 } } });
  const view = renderWithProviders(
    <Routes>
      <Route
        path="/live/11"
        element={<BetSlip match={aMatch()} user={aUser({ wallet_balance: balance, pending_withdrawals: pending })} />}
      />
      <Route path="/wallet" element={<p>Wallet page</p>} />
    </Routes>,
    { route: '/live/11' },
  );
  const amount = screen.getByRole('textbox', { name: 'Bet amount (₹)' });
  return { ...view, calls, amount };
}

describe('bet slip', () => {
  it('selects a team card and deselects it when selected again', async () => {
    const { user } = setup();
    const mi = screen.getByRole('button', { name: /MI 3\.00 Mumbai Indians/ });
    const csk = screen.getByRole('button', { name: /CSK 3\.00 Chennai Super Kings/ });
    await user.click(mi);
    expect(mi).toHaveAttribute('aria-pressed', 'true');
    await user.click(csk);
    expect(mi).toHaveAttribute('aria-pressed', 'false');
    expect(csk).toHaveAttribute('aria-pressed', 'true');
    await user.click(csk);
    expect(csk).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Select a team to bet' })).toBeDisabled();
  });

  it('accepts digits only in the amount', async () => {
    const { user, amount } = setup();
    await user.type(amount, '1a2.5-0e0');
    expect(amount).toHaveValue('12500');
  });

  it('adds the quick amounts +100, +500, +1000 and +5000', async () => {
    const { user, amount } = setup();
    for (const label of ['Add ₹100', 'Add ₹500', 'Add ₹1000', 'Add ₹5000']) {
      await user.click(screen.getByRole('button', { name: label }));
    }
    expect(amount).toHaveValue('6600');
  });

  it('steps by 100 and decrements only when the amount is at least 100', async () => {
    const { user, amount } = setup();
    const decrease = screen.getByRole('button', { name: 'Decrease amount by 100' });
    const increase = screen.getByRole('button', { name: 'Increase amount by 100' });
    expect(decrease).toBeDisabled();
    await user.click(increase);
    await user.click(increase);
    expect(amount).toHaveValue('200');
    await user.click(decrease);
    expect(amount).toHaveValue('100');
    await user.click(decrease);
    expect(amount).toHaveValue('');
    expect(decrease).toBeDisabled();
    await user.type(amount, '50');
    expect(decrease).toBeDisabled();
  });

  it('shows the potential win as three times the amount at the default price', async () => {
    const { user, amount } = setup();
    await user.type(amount, '1500');
    expect(screen.getByTestId('potential-win')).toHaveTextContent('₹4,500');
  });

  it('refuses a bet below ₹1000 with the minimum toast and sends nothing', async () => {
    const { user, amount, calls } = setup();
    await user.click(screen.getByRole('button', { name: /MI 3\.00 Mumbai Indians/ }));
    await user.type(amount, '900');
    await user.click(screen.getByRole('button', { name: 'Place Bet' }));
    expect(await screen.findByText('Invalid amount')).toBeInTheDocument();
    expect(screen.getByText('Please enter an amount of at least ₹1000.')).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);
  });

  it('refuses a bet above the balance with the insufficient balance toast', async () => {
    const { user, amount, calls } = setup(2000);
    await user.click(screen.getByRole('button', { name: /CSK 3\.00 Chennai Super Kings/ }));
    await user.type(amount, '2500');
    await user.click(screen.getByRole('button', { name: 'Place Bet' }));
    expect(await screen.findByText('Insufficient balance')).toBeInTheDocument();
    expect(
      screen.getByText("You don't have enough funds in your wallet. Please recharge your wallet."),
    ).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);
  });

  it('shows and checks the available balance: pending withdrawals cannot be bet', async () => {
    const { user, amount, calls } = setup(5000, 3500);
    expect(screen.getByText(/^Available balance:/)).toHaveTextContent(
      'Available balance: ₹1,500 (₹3,500 held for pending withdrawals)',
    );
    await user.click(screen.getByRole('button', { name: /MI 3\.00 Mumbai Indians/ }));
    await user.type(amount, '2000');
    await user.click(screen.getByRole('button', { name: 'Place Bet' }));
    expect(await screen.findByText('Insufficient balance')).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);
  });

  it('offers the way to the wallet on the insufficient balance toast', async () => {
    const { user, amount } = setup(1000);
    await user.click(screen.getByRole('button', { name: /MI 3\.00 Mumbai Indians/ }));
    await user.type(amount, '2000');
    await user.click(screen.getByRole('button', { name: 'Place Bet' }));
    await user.click(await screen.findByRole('button', { name: 'Recharge' }));
    expect(await screen.findByText('Wallet page')).toBeInTheDocument();
  });

  it('sends the bet with the price shown (3.00 by default) and potential win, then confirms it', async () => {
    const { user, amount, calls } = setup();
    await user.click(screen.getByRole('button', { name: /CSK 3\.00 Chennai Super Kings/ }));
    await user.type(amount, '2000');
    await user.click(screen.getByRole('button', { name: 'Place Bet' }));
    expect(await screen.findByText('Bet placed successfully')).toBeInTheDocument();
    expect(screen.getByText('Your bet has been placed. Good luck!')).toBeInTheDocument();
    expect(writes(calls)[0]).toEqual({
      method: 'POST',
      url: '/api/bets',
      body: { match_id: 11, team_id: 2, amount: 2000, odds: 3, potential_win: 6000 },
    });
    await waitFor(() => expect(amount).toHaveValue(''));
  });

  it("shows each team's price and the potential win at the price of the team picked, and sends that price", async () => {
    const calls = mockApi({ 'POST /api/bets': { status: 201, body: { id: 1 } } });
    const { user } = renderWithProviders(
      <BetSlip match={aMatch({ team1_odds: 1.85, team2_odds: 1.95 })} user={aUser()} />,
    );
    await user.type(screen.getByRole('textbox', { name: 'Bet amount (₹)' }), '1010');
    expect(screen.getByTestId('potential-win')).toHaveTextContent('—');
    await user.click(screen.getByRole('button', { name: /MI 1\.85 Mumbai Indians/ }));
    expect(screen.getByTestId('potential-win')).toHaveTextContent('₹1,869');
    await user.click(screen.getByRole('button', { name: /CSK 1\.95 Chennai Super Kings/ }));
    expect(screen.getByTestId('potential-win')).toHaveTextContent('₹1,970');
    await user.click(screen.getByRole('button', { name: 'Place Bet' }));
    expect(await screen.findByText('Bet placed successfully')).toBeInTheDocument();
    expect(writes(calls)[0].body).toEqual({ match_id: 11, team_id: 2, amount: 1010, odds: 1.95, potential_win: 1970 });
  });

  it('sends the bet again with its key when the outcome was unknown, and confirms the one bet', async () => {
    let tries = 0;
    const calls = mockApi({
      'POST /api/bets': () =>
        ++tries === 1
          ? {
              status: 504,
              body: { message: 'We could not confirm this request. Check before trying again.', outcome: 'unknown' },
              headers: { 'Retry-After': '0' },
            }
          : { status: 201, body: { id: 1 } },
    });
    const view = renderWithProviders(<BetSlip match={aMatch()} user={aUser()} />);
    await view.user.click(screen.getByRole('button', { name: /MI 3\.00 Mumbai Indians/ }));
    await view.user.type(screen.getByRole('textbox', { name: 'Bet amount (₹)' }), '1000');
    await view.user.click(screen.getByRole('button', { name: 'Place Bet' }));
    expect(await screen.findByText('Bet placed successfully')).toBeInTheDocument();
    const sent = writes(calls);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(idempotencyKeyOf(sent[1])).toBe(idempotencyKeyOf(sent[0]));
    expect(idempotencyKeyOf(sent[0])).toBeTruthy();
  });

  it("shows the server's message when the bet fails", async () => {
    mockApi({ 'POST /api/bets': { status: 409, body: { message: 'Insufficient balance' } } });
    const view = renderWithProviders(<BetSlip match={aMatch()} user={aUser()} />);
    await view.user.click(screen.getByRole('button', { name: /MI 3\.00 Mumbai Indians/ }));
    await view.user.type(screen.getByRole('textbox', { name: 'Bet amount (₹)' }), '1000');
    await view.user.click(screen.getByRole('button', { name: 'Place Bet' }));
    expect(await screen.findByText('Failed to place bet')).toBeInTheDocument();
    expect(screen.getByText('409: Insufficient balance')).toBeInTheDocument();
  });

  it('accepts a bet of exactly the wallet balance', async () => {
    const { user, amount, calls } = setup(2000);
    await user.click(screen.getByRole('button', { name: /MI 3\.00 Mumbai Indians/ }));
    await user.type(amount, '2000');
    await user.click(screen.getByRole('button', { name: 'Place Bet' }));
    expect(await screen.findByText('Bet placed successfully')).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(1);
  });

  it('says why and until when it is closed during a self-exclusion, and sends nothing', async () => {
    const calls = mockApi({
      'GET /api/account/limits': { body: someLimits({ self_excluded_until: '2027-05-22T09:00:00Z' }) },
    });
    const { user } = renderWithProviders(<BetSlip match={aMatch()} user={aUser()} />);
    const notice = await screen.findByRole('status', { name: 'Self-exclusion' });
    expect(notice).toHaveTextContent(`You cannot bet or deposit until ${formatDateTime('2027-05-22T09:00:00Z')}.`);
    await user.click(screen.getByRole('button', { name: /MI 3\.00 Mumbai Indians/ }));
    await user.type(screen.getByRole('textbox', { name: 'Bet amount (₹)' }), '1000');
    expect(screen.getByRole('button', { name: 'Place Bet' })).toBeDisabled();
    expect(writes(calls)).toHaveLength(0);
  });

  it('reads no limits for a signed-out visitor', () => {
    const calls = mockApi({});
    renderWithProviders(<BetSlip match={aMatch()} user={null} />);
    expect(calls).toHaveLength(0);
  });

  it.each([
    ['suspended', 'Betting is suspended for this match'],
    ['closed', 'Betting is closed'],
  ] as const)('shows %s betting instead of the Place Bet button', (betting, text) => {
    renderWithProviders(<BetSlip match={aMatch({ betting })} user={aUser()} />);
    expect(screen.getByRole('status')).toHaveTextContent(text);
    expect(screen.queryByRole('button', { name: /Place Bet|Select a team to bet/ })).not.toBeInTheDocument();
  });

  it('shows the other team as unavailable once the player has backed one', async () => {
    const calls = mockApi({ 'GET /api/matches/11/position': { body: { team_id: 1, staked: 5000 } } });
    renderWithProviders(<BetSlip match={aMatch()} user={aUser()} />);
    expect(await screen.findByRole('status')).toHaveTextContent('You have already backed Mumbai Indians in this match');
    expect(screen.getByRole('button', { name: /CSK 3\.00 Chennai Super Kings/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /MI 3\.00 Mumbai Indians/ })).toBeEnabled();
    expect(writes(calls)).toHaveLength(0);
  });

  it('shows betting paused once the live score is stale', () => {
    renderWithProviders(<BetSlip match={aMatch({ betting_pauses_at: '2020-01-01T00:00:00Z' })} user={aUser()} />);
    expect(screen.getByRole('status')).toHaveTextContent('Betting is paused until the live score is updated');
    expect(screen.queryByRole('button', { name: /Place Bet|Select a team to bet/ })).not.toBeInTheDocument();
  });

  it('pauses by itself when the pause time comes, without a new answer', () => {
    vi.useFakeTimers();
    try {
      renderWithProviders(
        <BetSlip match={aMatch({ betting_pauses_at: new Date(Date.now() + 60_000).toISOString() })} user={null} />,
      );
      expect(screen.getByRole('button', { name: 'Select a team to bet' })).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(61_000));
      expect(screen.getByRole('status')).toHaveTextContent('Betting is paused until the live score is updated');
    } finally {
      vi.useRealTimers();
    }
  });
});

import { screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Bet } from '@/domain/entities.ts';
import { aMatch, aUser } from '@/test/fixtures.ts';
import { mockApi } from '@/test/render.tsx';
import { renderAdmin } from './testing/render-admin.tsx';
import { MatchDetailRoute } from './matches/routes/match-detail.tsx';
import { MatchesRoute } from './matches/routes/matches.tsx';
import { UserDetailRoute } from './users/routes/user-detail.tsx';
import { UsersRoute } from './users/routes/users.tsx';
import { WalletManagementRoute } from './money/routes/wallet-management.tsx';

const ADJUST = 'Try adjusting your search filters.';

describe('admin matches list', () => {
  it("says 'Try adjusting your search filters.' when a status tab empties the list", async () => {
    mockApi({ 'GET /api/admin/matches': { body: [aMatch({ status: 'live' })] } });
    const { user } = renderAdmin(<MatchesRoute />);
    await screen.findAllByText('MI');
    await user.click(screen.getByRole('tab', { name: 'Completed' }));
    expect(await screen.findByText(ADJUST)).toBeInTheDocument();
    expect(screen.queryByText('No matches have been created yet.')).not.toBeInTheDocument();
  });

  it("says 'Try adjusting your search filters.' when the status filter empties the list", async () => {
    mockApi({ 'GET /api/admin/matches': { body: [aMatch({ status: 'live' })] } });
    const { user } = renderAdmin(<MatchesRoute />);
    await screen.findAllByText('MI');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by status' }), 'upcoming');
    expect(await screen.findByText(ADJUST)).toBeInTheDocument();
  });

  it("says 'No matches have been created yet.' only for a truly empty list", async () => {
    mockApi({ 'GET /api/admin/matches': { body: [] } });
    renderAdmin(<MatchesRoute />);
    expect(await screen.findByText('No matches have been created yet.')).toBeInTheDocument();
  });
});

describe('admin users list', () => {
  it("says 'Try adjusting your search filters.' when a status tab empties the list", async () => {
    const calls = mockApi({
      'GET /api/admin/users': ({ url }) => ({ body: url.includes('status=banned') ? [] : [aUser()] }),
    });
    const { user } = renderAdmin(<UsersRoute />);
    await screen.findByRole('table', { name: 'Users' });
    await user.click(screen.getByRole('tab', { name: 'Banned' }));
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/admin/users?status=banned&limit=50'));
    expect(await screen.findByText(ADJUST)).toBeInTheDocument();
    expect(screen.queryByText('No users are registered yet.')).not.toBeInTheDocument();
  });

  it("says 'No users are registered yet.' only for a truly empty list", async () => {
    mockApi({ 'GET /api/admin/users': { body: [] } });
    renderAdmin(<UsersRoute />);
    expect(await screen.findByText('No users are registered yet.')).toBeInTheDocument();
  });

  it('shows an inline error, not the empty texts, when the list fails to load', async () => {
    mockApi({ 'GET /api/admin/users': { status: 500, body: { message: 'boom' } } });
    renderAdmin(<UsersRoute />);
    expect(await screen.findByText('Error loading users. Please try again later.')).toBeInTheDocument();
    expect(screen.queryByText('No users found')).not.toBeInTheDocument();
  });
});

describe('admin match detail', () => {
  it('shows an inline error instead of "0 bets" when the bets fail to load', async () => {
    mockApi({
      'GET /api/admin/matches/11': { body: aMatch() },
      'GET /api/admin/bets/match/11': { status: 500, body: { message: 'boom' } },
    });
    renderAdmin(
      <Routes>
        <Route path="/admin/matches/:id" element={<MatchDetailRoute />} />
      </Routes>,
      { route: '/admin/matches/11' },
    );
    expect(await screen.findByText('Error loading bets. Please try again later.')).toBeInTheDocument();
    expect(screen.queryByText('0 bets placed on this match')).not.toBeInTheDocument();
    expect(screen.queryByText('No bets have been placed on this match yet.')).not.toBeInTheDocument();
  });
});

describe('admin user detail', () => {
  it("shows the bet's team short name, or 'Team {id}' without one", async () => {
    const bet = (id: number, overrides: Partial<Bet>): Bet =>
      ({
        id,
        user_id: 7,
        match_id: 11,
        team_id: 1,
        amount: 1000,
        odds: 3,
        potential_win: 3000,
        status: 'placed',
        created_at: '2026-11-01T10:00:00Z',
        ...overrides,
      }) as Bet;
    mockApi({
      'GET /api/admin/users/7': { body: aUser() },
      'GET /api/admin/users/7/transactions': { body: [] },
      'GET /api/admin/users/7/bank-accounts': { body: [] },
      'GET /api/admin/users/7/bets': {
        body: [
          bet(1, { team_id: 2, team: { id: 2, name: 'Chennai Super Kings', short_name: 'CSK', logo_url: null } }),
          bet(2, { team_id: 4 }),
        ],
      },
    });
    const { user } = renderAdmin(
      <Routes>
        <Route path="/admin/users/:id" element={<UserDetailRoute />} />
      </Routes>,
      { route: '/admin/users/7' },
    );
    await user.click(await screen.findByRole('tab', { name: 'Betting History' }));
    const table = await screen.findByRole('table', { name: 'Betting history' });
    await waitFor(() => expect(table).toHaveTextContent('CSK'));
    expect(table).toHaveTextContent('Team 4');
    expect(table).not.toHaveTextContent('KKR');
  });

  const tabs = [
    [
      'Wallet & Transactions',
      'transactions',
      'Error loading transactions. Please try again later.',
      'No transactions found for this user.',
    ],
    ['Betting History', 'bets', 'Error loading bets. Please try again later.', 'No bets found for this user.'],
    [
      'Bank Accounts',
      'bank-accounts',
      'Error loading bank accounts. Please try again later.',
      'No bank accounts registered by this user.',
    ],
  ] as const;

  function renderUserDetail(failing?: string) {
    const lists = Object.fromEntries(
      ['transactions', 'bets', 'bank-accounts'].map((list) => [
        `GET /api/admin/users/7/${list}`,
        list === failing ? { status: 500, body: { message: 'boom' } } : { body: [] },
      ]),
    );
    mockApi({ 'GET /api/admin/users/7': { body: aUser() }, ...lists });
    return renderAdmin(
      <Routes>
        <Route path="/admin/users/:id" element={<UserDetailRoute />} />
      </Routes>,
      { route: '/admin/users/7' },
    );
  }

  it.each(tabs)(
    'shows an inline error on the %s tab when its list fails to load, not the empty text',
    async (tab, list, error, empty) => {
      const { user } = renderUserDetail(list);
      await user.click(await screen.findByRole('tab', { name: tab }));
      expect(await screen.findByText(error)).toBeInTheDocument();
      expect(screen.queryByText(empty)).not.toBeInTheDocument();
    },
  );

  it.each(tabs)(
    'keeps the empty text on the %s tab for a list that is really empty',
    async (tab, _list, error, empty) => {
      const { user } = renderUserDetail();
      await user.click(await screen.findByRole('tab', { name: tab }));
      expect(await screen.findByText(empty)).toBeInTheDocument();
      expect(screen.queryByText(error)).not.toBeInTheDocument();
    },
  );
});

describe('admin wallet management', () => {
  function renderWalletPage(transactions: { status?: number; body: unknown }) {
    mockApi({ 'GET /api/admin/users/7': { body: aUser() }, 'GET /api/wallet/transactions': transactions });
    renderAdmin(
      <Routes>
        <Route path="/admin/users/:id/wallet" element={<WalletManagementRoute />} />
      </Routes>,
      { route: '/admin/users/7/wallet' },
    );
  }

  it('shows an inline error when the transaction history fails to load, not the empty text', async () => {
    renderWalletPage({ status: 500, body: { message: 'boom' } });
    const history = await screen.findByRole('region', { name: 'Transaction History' });
    await waitFor(() => expect(history).toHaveTextContent('Error loading transactions. Please try again later.'));
    expect(history).not.toHaveTextContent('No transactions found for this user');
  });

  it("keeps 'No transactions found for this user' for a history that is really empty", async () => {
    renderWalletPage({ body: [] });
    const history = await screen.findByRole('region', { name: 'Transaction History' });
    await waitFor(() => expect(history).toHaveTextContent('No transactions found for this user'));
    expect(history).not.toHaveTextContent('Error loading');
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { booksMessages, type Books, type BooksMatch } from '@/domain/books.ts';
import { mockApi } from '@/test/render.tsx';
import { renderAdmin } from '@/features/admin/testing/render-admin.tsx';
import { BOOKS_PAGE, BooksRoute } from './books-screen.tsx';
import { TodayHouseResult } from '../components/today-house-result.tsx';

/** Match lines 1..count, newest first; line 1 a loss for the house. */
function lines(count: number): BooksMatch[] {
  return Array.from({ length: count }, (_, index) => {
    const id = count - index;
    return {
      match_id: id,
      team1: 'Mumbai Indians',
      team2: `Team ${id}`,
      settled_at: '2026-11-20T14:30:00Z',
      bets: 2,
      stakes: 5000,
      paid: id === 1 ? 9000 : 3000,
      refunded: 0,
      house_result: id === 1 ? -4000 : 2000,
    };
  });
}

function books(matches: BooksMatch[], days = ['2026-11-19', '2026-11-20']): Books {
  const house = matches.reduce((sum, line) => sum + line.house_result, 0);
  return {
    matches,
    days: days.map((day, index) => ({
      day,
      deposits: 10_000,
      withdrawals: 700,
      admin_credits: 300,
      referral_bonuses: 0,
      house_result: index === days.length - 1 ? house : 0,
    })),
    totals: {
      bets: matches.length * 2,
      stakes: matches.length * 5000,
      paid: matches.reduce((sum, line) => sum + line.paid, 0),
      refunded: 0,
      deposits: 10_000 * days.length,
      withdrawals: 700 * days.length,
      admin_credits: 300 * days.length,
      referral_bonuses: 0,
      house_result: house,
    },
  };
}

function setup(route: string, answer: Books) {
  const calls = mockApi({ 'GET /api/admin/books': { body: answer } });
  return { ...renderAdmin(<BooksRoute />, { route }), calls };
}

const shownMatches = () =>
  within(screen.getByRole('table', { name: 'Matches' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0].textContent);

describe('the Books screen', () => {
  it("shows the range's totals, the chart of the days and the first page of match lines, then the rest on Load More", async () => {
    const { user, calls } = setup('/admin/books?from=2026-11-19&to=2026-11-20', books(lines(BOOKS_PAGE + 3)));
    await screen.findByRole('table', { name: 'Matches' });
    expect(calls[0].url).toBe('/api/admin/books?from=2026-11-19&to=2026-11-20');

    // 22 lines won ₹2,000 each, one lost ₹4,000: ₹40,000
    expect(screen.getByText('House result', { selector: 'dt' }).nextSibling).toHaveTextContent('₹40,000');
    expect(screen.getByText('46 bets settled')).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'House result per day' })).toBeInTheDocument();

    expect(shownMatches()).toHaveLength(BOOKS_PAGE);
    expect(shownMatches()[0]).toBe(`Mumbai Indians vs Team ${BOOKS_PAGE + 3}`);
    expect(screen.getByRole('link', { name: `Mumbai Indians vs Team ${BOOKS_PAGE + 3}` })).toHaveAttribute(
      'href',
      `/admin/matches/${BOOKS_PAGE + 3}`,
    );
    await user.click(screen.getByRole('button', { name: 'Load More' }));
    expect(shownMatches()).toHaveLength(BOOKS_PAGE + 3);
    expect(screen.queryByRole('button', { name: 'Load More' })).not.toBeInTheDocument();
    const lost = screen.getByTestId('books-match-1');
    expect(
      within(lost)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Mumbai Indians vs Team 1', expect.any(String), '2', '₹5,000', '₹9,000', '₹0', '-₹4,000']);
  });

  it('asks for the range typed, and refuses one longer than 366 days without asking', async () => {
    const { user, calls } = setup('/admin/books?from=2026-11-01&to=2026-11-20', books(lines(1)));
    await screen.findByRole('table', { name: 'Matches' });
    const from = screen.getByLabelText('From');
    await user.clear(from);
    await user.type(from, '2026-11-15');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(calls.at(-1)!.url).toBe('/api/admin/books?from=2026-11-15&to=2026-11-20'));

    const asked = calls.length;
    await user.clear(from);
    await user.type(from, '2025-11-19');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(booksMessages.rangeTooLong);
    expect(calls).toHaveLength(asked);
  });

  it('says when no match was settled in the range', async () => {
    setup('/admin/books?from=2026-11-01&to=2026-11-02', books([]));
    expect(await screen.findByText('No match was settled in this range')).toBeInTheDocument();
  });

  it('puts today’s house result on the dashboard, linking to the books', async () => {
    mockApi({ 'GET /api/admin/books': { body: books(lines(1)) } });
    renderAdmin(<TodayHouseResult />);
    expect(await screen.findByRole('link', { name: 'House result today: -₹4,000' })).toHaveAttribute(
      'href',
      '/admin/books',
    );
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '@/domain/money.ts';
import { someLimits } from '@/test/fixtures.ts';
import { mockApi, renderWithProviders, writes } from '@/test/render.tsx';
import { ResponsibleGamblingRoute } from './responsible-gambling.tsx';

const IN_A_DAY = '2026-11-23T09:00:00Z';

describe('responsible gambling page', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows each limit with what is left and a pending raise with the time it applies', async () => {
    mockApi({
      'GET /api/account/limits': {
        body: someLimits({
          deposit_limits: { daily: 5000, weekly: null, monthly: null },
          deposit_remaining: { daily: 1500, weekly: null, monthly: null },
          pending_changes: [
            { period: 'daily', amount: 10000, requested_at: '2026-11-22T09:00:00Z', effective_at: IN_A_DAY },
          ],
        }),
      },
    });
    renderWithProviders(<ResponsibleGamblingRoute />);
    const list = await screen.findByLabelText('Deposit limits by period');
    const items = [...list.children].map((item) => item.textContent);
    expect(items).toEqual([
      `Daily (24 hours)₹5,000 · ₹1,500 left₹10,000 from ${formatDateTime(IN_A_DAY)}`,
      'Weekly (7 days)No limit',
      'Monthly (30 days)No limit',
    ]);
    expect(screen.getByLabelText('Time-out and self-exclusion')).toHaveTextContent('Time-outNoneSelf-exclusionNone');
  });

  it('sets a limit and says when a raise applies', async () => {
    const calls = mockApi({
      'GET /api/account/limits': { body: someLimits({ deposit_limits: { daily: null, weekly: 2000, monthly: null } }) },
      'PUT /api/account/limits': {
        body: someLimits({
          deposit_limits: { daily: null, weekly: 2000, monthly: null },
          pending_changes: [
            { period: 'weekly', amount: 8000, requested_at: '2026-11-22T09:00:00Z', effective_at: IN_A_DAY },
          ],
        }),
      },
    });
    const { user } = renderWithProviders(<ResponsibleGamblingRoute />);
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Period' }), 'weekly');
    await user.type(screen.getByRole('textbox', { name: 'Limit (₹)' }), '8,000x');
    await user.click(screen.getByRole('button', { name: 'Set limit' }));
    expect(await screen.findByText('Change requested')).toBeInTheDocument();
    expect(
      screen.getByText(`You will have a weekly limit of ₹8,000 from ${formatDateTime(IN_A_DAY)}.`),
    ).toBeInTheDocument();
    expect(writes(calls)).toEqual([
      { method: 'PUT', url: '/api/account/limits', body: { period: 'weekly', amount: 8000 } },
    ]);
    expect(await screen.findByText(`₹8,000 from ${formatDateTime(IN_A_DAY)}`)).toBeInTheDocument();
  });

  it('removes a limit, and offers removal only for a limit that exists', async () => {
    const calls = mockApi({
      'GET /api/account/limits': { body: someLimits({ deposit_limits: { daily: 3000, weekly: null, monthly: null } }) },
      'PUT /api/account/limits': { body: someLimits() },
    });
    const { user } = renderWithProviders(<ResponsibleGamblingRoute />);
    const remove = await screen.findByRole('button', { name: 'Remove limit' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), 'monthly');
    expect(remove).toBeDisabled();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), 'daily');
    await user.click(remove);
    expect(await screen.findByText('You have no daily limit.')).toBeInTheDocument();
    expect(writes(calls)[0].body).toEqual({ period: 'daily', amount: null });
  });

  it('refuses a limit below the smallest deposit without sending it', async () => {
    const calls = mockApi({ 'GET /api/account/limits': { body: someLimits() } });
    const { user } = renderWithProviders(<ResponsibleGamblingRoute />);
    await user.type(await screen.findByRole('textbox', { name: 'Limit (₹)' }), '100');
    await user.click(screen.getByRole('button', { name: 'Set limit' }));
    expect(await screen.findByText('Deposit limit must be between ₹500 and ₹1,00,00,000')).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);
  });

  it('asks for confirmation, saying it cannot be undone, before a time-out', async () => {
    const calls = mockApi({
      'GET /api/account/limits': { body: someLimits() },
      'POST /api/account/timeout': { status: 201, body: someLimits({ timeout_until: IN_A_DAY }) },
    });
    const { user } = renderWithProviders(<ResponsibleGamblingRoute />);
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Length of the time-out' }), '7 days');
    await user.click(screen.getByRole('button', { name: 'Take a time-out' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Time-out for 7 days?' });
    expect(dialog).toHaveTextContent(
      'This cannot be undone: nobody can shorten or lift the time-out, not you and not our support team.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(writes(calls)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Take a time-out' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Time-out for 7 days?' });
    await user.click(within(dialog).getByRole('button', { name: 'Take a time-out' }));
    expect(await screen.findByText('Time-out started')).toBeInTheDocument();
    expect(writes(calls)).toEqual([{ method: 'POST', url: '/api/account/timeout', body: { days: 7 } }]);
    expect(await screen.findByRole('status', { name: 'Time-out' })).toHaveTextContent(
      `You cannot bet or deposit until ${formatDateTime(IN_A_DAY)}.`,
    );
  }, 15_000);

  it('self-excludes for a year after confirmation', async () => {
    const calls = mockApi({
      'GET /api/account/limits': { body: someLimits() },
      'POST /api/account/self-exclusion': {
        status: 201,
        body: someLimits({ self_excluded_until: '2027-11-22T09:00:00Z' }),
      },
    });
    const { user } = renderWithProviders(<ResponsibleGamblingRoute />);
    const timeoutLengths = await screen.findByRole('combobox', { name: 'Length of the time-out' });
    expect(
      within(timeoutLengths)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['1 day', '7 days', '30 days', '42 days']);
    const lengths = screen.getByRole('combobox', { name: 'Length of the self-exclusion' });
    expect(
      within(lengths)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['6 months', '1 year', '5 years']);
    await user.selectOptions(lengths, '1 year');
    await user.click(screen.getByRole('button', { name: 'Self-exclude' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Self-exclusion for 1 year?' });
    expect(dialog).toHaveTextContent('This cannot be undone');
    await user.click(within(dialog).getByRole('button', { name: 'Self-exclude' }));
    expect(await screen.findByText('Self-exclusion started')).toBeInTheDocument();
    expect(writes(calls)).toEqual([{ method: 'POST', url: '/api/account/self-exclusion', body: { months: 12 } }]);
  });

  it('downloads a statement for the chosen dates, and checks their order first', async () => {
    const calls = mockApi({
      'GET /api/account/limits': { body: someLimits() },
      'GET /api/wallet/statement.csv': { body: 'csv' },
    });
    const createObjectURL = vi.fn(() => 'blob:statement');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderWithProviders(<ResponsibleGamblingRoute />);
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    await user.clear(from);
    await user.type(from, '2026-11-10');
    await user.clear(to);
    await user.type(to, '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('The start date must be on or before the end date')).toBeInTheDocument();
    await user.clear(to);
    await user.type(to, '2026-11-20');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(calls.at(-1)?.url).toBe('/api/wallet/statement.csv?from=2026-11-10&to=2026-11-20');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('statement-2026-11-10-to-2026-11-20.csv');
  });

  it('shows the reality-check interval (60 minutes until chosen) and saves a new one', async () => {
    const calls = mockApi({
      'GET /api/account/limits': { body: someLimits() },
      'GET /api/account/reality-check': { body: { interval_minutes: 60 } },
      'PUT /api/account/reality-check': { body: { interval_minutes: null } },
    });
    const { user } = renderWithProviders(<ResponsibleGamblingRoute />);
    const select = await screen.findByRole('combobox', { name: 'Show me my time and results' });
    await waitFor(() => expect(select).toHaveValue('60'));
    expect([...select.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'Every 15 minutes',
      'Every 30 minutes',
      'Every 60 minutes',
      'Never',
    ]);
    await user.selectOptions(select, 'Never');
    await user.click(screen.getByRole('button', { name: 'Save reality checks' }));
    expect(await screen.findByText('Reality checks saved')).toBeInTheDocument();
    expect(writes(calls)).toEqual([
      { method: 'PUT', url: '/api/account/reality-check', body: { interval_minutes: null } },
    ]);
  });
});

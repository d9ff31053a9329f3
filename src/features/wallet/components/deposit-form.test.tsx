import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DEPOSIT_REFERENCE } from '@/domain/schemas.ts';
import { aTransaction, someLimits } from '@/test/fixtures.ts';
import { mockApi, renderWithProviders, writes } from '@/test/render.tsx';
import { createDepositReference, gatewayRedirect } from '../api/create-deposit.ts';
import { formatDateTime } from '@/domain/money.ts';
import { DepositForm } from './deposit-form.tsx';

/** The form once the player's protection has loaded (it waits for it, the limit prompt may come first). */
async function renderDepositForm() {
  const rendered = renderWithProviders(<DepositForm />);
  await screen.findByRole('form', { name: 'Deposit funds' });
  return rendered;
}

describe('deposit form', () => {
  it('starts at ₹1,000 with UPI as the only payment method', async () => {
    mockApi({});
    await renderDepositForm();
    expect(screen.getByLabelText('Amount (₹)')).toHaveValue('1000');
    const method = screen.getByRole('combobox', { name: 'Payment Method' });
    expect(method).toHaveValue('upi');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['UPI']);
  });

  it('fills the quick amounts', async () => {
    mockApi({});
    const { user } = await renderDepositForm();
    for (const [label, value] of [
      ['₹500', '500'],
      ['₹2,000', '2000'],
      ['₹5,000', '5000'],
      ['₹10,000', '10000'],
    ]) {
      await user.click(screen.getByRole('button', { name: label }));
      expect(screen.getByLabelText('Amount (₹)')).toHaveValue(value);
    }
  });

  it('offers exactly the quick amounts ₹500, ₹1,000, ₹2,000, ₹5,000 and ₹10,000', async () => {
    mockApi({});
    const { user } = await renderDepositForm();
    const quick = within(screen.getByRole('group', { name: 'Quick amounts' })).getAllByRole('button');
    expect(quick.map((button) => button.textContent)).toEqual(['₹500', '₹1,000', '₹2,000', '₹5,000', '₹10,000']);
    await user.click(quick[0]);
    await user.click(screen.getByRole('button', { name: '₹1,000' }));
    expect(screen.getByLabelText('Amount (₹)')).toHaveValue('1000');
  });

  it('takes digits only in the amount, so a decimal cannot be entered', async () => {
    mockApi({});
    const { user } = await renderDepositForm();
    const amount = screen.getByLabelText('Amount (₹)');
    await user.clear(amount);
    await user.type(amount, '1000.5');
    expect(amount).toHaveValue('10005');
    await user.click(screen.getByRole('button', { name: 'Proceed to Pay' }));
    expect(screen.queryByText('Minimum deposit amount is ₹500')).not.toBeInTheDocument();
  });

  it('refuses amounts under ₹500 and over ₹100,000', async () => {
    const calls = mockApi({});
    const { user } = await renderDepositForm();
    const amount = screen.getByLabelText('Amount (₹)');
    await user.clear(amount);
    await user.type(amount, '499');
    await user.click(screen.getByRole('button', { name: 'Proceed to Pay' }));
    expect(await screen.findByText('Minimum deposit amount is ₹500')).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '100001');
    await user.click(screen.getByRole('button', { name: 'Proceed to Pay' }));
    expect(await screen.findByText('Maximum deposit amount is ₹100,000')).toBeInTheDocument();
    expect(writes(calls)).toHaveLength(0);
  });

  function mockDeposit() {
    return mockApi({
      'POST /api/wallet/deposit': ({ body }) => ({
        status: 201,
        body: {
          ...aTransaction(9, { status: 'pending', reference_id: (body as { reference: string }).reference }),
          redirect_url: '/api/payments/sandbox?ref=x',
        },
      }),
    });
  }

  it('creates a pending deposit with a REF reference, toasts it and goes to the gateway after 1.5 s', async () => {
    const calls = mockDeposit();
    const go = vi.spyOn(gatewayRedirect, 'go').mockImplementation(() => {});
    const { user } = await renderDepositForm();
    await user.click(screen.getByRole('button', { name: 'Proceed to Pay' }));
    expect(await screen.findByText('Deposit request created')).toBeInTheDocument();
    const body = writes(calls)[0].body as { amount: number; paymentMethod: string; reference: string; status: string };
    expect(body).toMatchObject({ amount: 1000, paymentMethod: 'upi', status: 'pending' });
    expect(body.reference).toMatch(DEPOSIT_REFERENCE);
    expect(screen.getByText(`Reference #${body.reference}. Awaiting confirmation.`)).toBeInTheDocument();
    expect(go).not.toHaveBeenCalled();
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/payments/sandbox?ref=x'), { timeout: 2500 });
  });

  it('still goes to the gateway when the form is closed during the 1.5 s (the Recharge dialog, another tab)', async () => {
    mockDeposit();
    const go = vi.spyOn(gatewayRedirect, 'go').mockImplementation(() => {});
    const { user, unmount } = await renderDepositForm();
    await user.click(screen.getByRole('button', { name: 'Proceed to Pay' }));
    await screen.findByText('Deposit request created');
    unmount();
    await waitFor(() => expect(go).toHaveBeenCalledWith('/api/payments/sandbox?ref=x'), { timeout: 2500 });
    expect(go).toHaveBeenCalledTimes(1);
  });

  it("shows 'Request failed' with the server's message", async () => {
    mockApi({ 'POST /api/wallet/deposit': { status: 403, body: { message: 'Account suspended' } } });
    const { user } = await renderDepositForm();
    await user.click(screen.getByRole('button', { name: 'Proceed to Pay' }));
    expect(await screen.findByText('Request failed')).toBeInTheDocument();
    expect(screen.getByText('403: Account suspended')).toBeInTheDocument();
  });
});

describe('deposit reference', () => {
  it('reads REF-{timestamp}-{4 uppercase letters}', () => {
    expect(createDepositReference(1763700000000, () => 0)).toBe('REF-1763700000000-AAAA');
    expect(createDepositReference()).toMatch(DEPOSIT_REFERENCE);
  });

  it('shows what the tightest deposit limit leaves', async () => {
    mockApi({
      'GET /api/account/limits': {
        body: someLimits({
          deposit_limits: { daily: 5000, weekly: 20000, monthly: null },
          deposit_remaining: { daily: 1500, weekly: 4000, monthly: null },
        }),
      },
    });
    await renderDepositForm();
    expect(await screen.findByTestId('deposit-limit')).toHaveTextContent(
      'You can deposit ₹1,500 more under your daily limit of ₹5,000.',
    );
  });

  it('says why and until when deposits are closed during a time-out, and sends nothing', async () => {
    const calls = mockApi({
      'GET /api/account/limits': { body: someLimits({ timeout_until: '2026-11-29T09:00:00Z' }) },
    });
    const { user } = await renderDepositForm();
    expect(await screen.findByRole('status', { name: 'Time-out' })).toHaveTextContent(
      `You cannot bet or deposit until ${formatDateTime('2026-11-29T09:00:00Z')}.`,
    );
    const pay = screen.getByRole('button', { name: 'Proceed to Pay' });
    expect(pay).toBeDisabled();
    await user.click(pay);
    expect(writes(calls)).toHaveLength(0);
  });

  it('asks about a deposit limit before the first deposit; "Set limit" sets it and then the amount shows', async () => {
    const calls = mockApi({
      'GET /api/account/limits': { body: someLimits({ limit_prompt_due: true }) },
      'POST /api/account/limit-prompt': {
        status: 201,
        body: someLimits({ deposit_limits: { daily: 5000, weekly: null, monthly: null } }),
      },
    });
    const { user } = renderWithProviders(<DepositForm />);
    expect(
      await screen.findByText('Would you like to set a deposit limit before your first deposit?'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Amount (₹)')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), 'weekly');
    await user.type(screen.getByLabelText('Limit (₹)'), '5000');
    await user.click(screen.getByRole('button', { name: 'Set limit' }));
    expect(await screen.findByLabelText('Amount (₹)')).toBeInTheDocument();
    expect(writes(calls)).toEqual([
      {
        method: 'POST',
        url: '/api/account/limit-prompt',
        body: { answer: 'set_limit', period: 'weekly', amount: 5000 },
      },
    ]);
  });

  it('"Not now" answers the prompt too, and an answered prompt never shows again', async () => {
    const calls = mockApi({
      'GET /api/account/limits': { body: someLimits({ limit_prompt_due: true }) },
      'POST /api/account/limit-prompt': { status: 201, body: someLimits({ limit_prompt_due: false }) },
    });
    const { user, unmount } = renderWithProviders(<DepositForm />);
    await user.click(await screen.findByRole('button', { name: 'Not now' }));
    expect(await screen.findByLabelText('Amount (₹)')).toBeInTheDocument();
    expect(writes(calls)).toEqual([{ method: 'POST', url: '/api/account/limit-prompt', body: { answer: 'not_now' } }]);
    unmount();

    mockApi({ 'GET /api/account/limits': { body: someLimits({ limit_prompt_due: false }) } });
    await renderDepositForm();
    expect(
      screen.queryByText('Would you like to set a deposit limit before your first deposit?'),
    ).not.toBeInTheDocument();
  });
});

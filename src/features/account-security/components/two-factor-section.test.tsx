import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderWithProviders, writes } from '@/test/render.tsx';
import { TwoFactorSection } from './two-factor-section.tsx';

const status = (extra: Record<string, unknown> = {}) => ({
  enabled: true,
  available: true,
  required: false,
  recovery_codes_left: 9,
  locked_until: null,
  ...extra,
});
const SET_UP = { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/Cricket%20League:ops?secret=JBSWY3DPEHPK3PXP' };

describe('two-factor sign-in on the Security screen', () => {
  it('replaces a second factor only with the password and codes of the current one, then of the new one', async () => {
    const calls = mockApi({
      'GET /api/account/two-factor': { body: status() },
      'POST /api/account/two-factor': { status: 201, body: SET_UP },
      'POST /api/account/two-factor/confirm': { status: 201, body: { recovery_codes: ['abcde-fghjk'] } },
    });
    const { user } = renderWithProviders(<TwoFactorSection />);
    await user.click(await screen.findByRole('button', { name: 'Set up again' }));
    const proof = screen.getByRole('form', { name: 'Set up two-factor sign-in' });
    expect(proof).toHaveTextContent('enter your password and a code from the app you use now');
    await user.type(screen.getByLabelText('Current password'), 'admin-secret-1');
    await user.type(screen.getByLabelText('Code from your current authenticator app'), '111111');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await user.type(await screen.findByLabelText('Code from the app'), '222222');
    await user.type(screen.getByLabelText('Code from your current authenticator app'), '333333');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByRole('region', { name: 'Recovery codes' })).toHaveTextContent('abcde-fghjk');
    expect(writes(calls).map((call) => call.body)).toEqual([
      { current_password: 'admin-secret-1', totp_code: '111111' },
      { code: '222222', current_password: 'admin-secret-1', totp_code: '333333' },
    ]);
  });

  it('asks a first set-up for the password only', async () => {
    const calls = mockApi({
      'GET /api/account/two-factor': { body: status({ enabled: false, recovery_codes_left: 0 }) },
      'POST /api/account/two-factor': { status: 400, body: { message: 'Current password is incorrect' } },
    });
    const { user } = renderWithProviders(<TwoFactorSection />);
    await user.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(screen.queryByLabelText('Code from your current authenticator app')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Current password'), 'not-it');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('400: Current password is incorrect')).toBeInTheDocument();
    expect(writes(calls)[0].body).toEqual({ current_password: 'not-it' });
  });

  it('shows a lock after ten wrong codes', async () => {
    mockApi({ 'GET /api/account/two-factor': { body: status({ locked_until: '2026-11-27T12:30:00.000Z' }) } });
    renderWithProviders(<TwoFactorSection />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Locked after 10 wrong codes until .+: until then only browsers you have signed in with can use a code\.$/,
    );
  });
});

import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render.tsx';

// The service worker's side (vite-plugin-pwa's React hook): a new version is waiting until the test says so.
const worker = vi.hoisted(() => ({ waiting: false, update: vi.fn(async () => {}) }));
vi.mock('virtual:pwa-register/react', () => ({
  useRegisterSW: () => ({
    needRefresh: useState(worker.waiting),
    offlineReady: useState(false),
    updateServiceWorker: worker.update,
  }),
}));

const { UpdatePrompt } = await import('./update-prompt.tsx');

describe('update prompt', () => {
  it('says nothing while the running version is the newest', () => {
    worker.waiting = false;
    renderWithProviders(<UpdatePrompt />);
    expect(screen.queryByText('A new version is available')).not.toBeInTheDocument();
  });

  it('offers a new version and swaps only when the player chooses Reload', async () => {
    worker.waiting = true;
    const { user } = renderWithProviders(<UpdatePrompt />);
    expect(screen.getByRole('status')).toHaveTextContent('A new version is available');
    expect(worker.update).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(worker.update).toHaveBeenCalledWith(true);
  });
});

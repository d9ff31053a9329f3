import { onlineManager } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatTime } from '@/lib/format.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { CONNECT_TO_CONTINUE, LastUpdated, OfflineHint } from './offline.tsx';

const LOADED_AT = Date.parse('2026-11-25T14:05:00Z');

describe('offline hints', () => {
  afterEach(() => act(() => onlineManager.setOnline(true)));

  it('say nothing while online', () => {
    renderWithProviders(
      <>
        <OfflineHint />
        <LastUpdated at={LOADED_AT} />
      </>,
    );
    expect(screen.queryByText(CONNECT_TO_CONTINUE)).not.toBeInTheDocument();
    expect(screen.queryByTestId('last-updated')).not.toBeInTheDocument();
  });

  it('offline, say that the action needs the internet and when the list was loaded; online again, go', () => {
    renderWithProviders(
      <>
        <OfflineHint />
        <LastUpdated at={LOADED_AT} />
        <LastUpdated at={0} />
      </>,
    );
    act(() => onlineManager.setOnline(false));
    expect(screen.getByText('Connect to the internet to continue')).toBeInTheDocument();
    expect(screen.getAllByTestId('last-updated').map((line) => line.textContent)).toEqual([
      `Last updated ${formatTime(new Date(LOADED_AT).toISOString())}`,
    ]);
    act(() => onlineManager.setOnline(true));
    expect(screen.queryByText(CONNECT_TO_CONTINUE)).not.toBeInTheDocument();
  });
});

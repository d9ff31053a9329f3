import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ChakraProvider } from '@chakra-ui/react';
import { Link, Outlet, RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { system } from '@/components/ui/system.ts';
import { ROUTE_OVERLAY_MS, RouteChangeOverlay } from './route-change-overlay.tsx';

afterEach(() => vi.useRealTimers());

describe('route change overlay', () => {
  it('covers the page for 800 ms after each route change, not on first load', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const router = createMemoryRouter([
      {
        element: (
          <>
            <RouteChangeOverlay />
            <Outlet />
          </>
        ),
        children: [
          { path: '/', element: <Link to="/wallet">Wallet</Link> },
          { path: '/wallet', element: <p>Wallet page</p> },
        ],
      },
    ]);
    render(
      <ChakraProvider value={system}>
        <RouterProvider router={router} />
      </ChakraProvider>,
    );
    expect(screen.queryByRole('status', { name: 'Loading page' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Wallet' }));
    expect(screen.getByRole('status', { name: 'Loading page' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(ROUTE_OVERLAY_MS - 100));
    expect(screen.getByRole('status', { name: 'Loading page' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByRole('status', { name: 'Loading page' })).not.toBeInTheDocument();
    expect(ROUTE_OVERLAY_MS).toBe(800);
  });
});

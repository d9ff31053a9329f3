import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render.tsx';
import { notify } from './toaster.tsx';

function setWidth(wide: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: wide,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  );
}

async function showToast(title = 'Bank account added') {
  const view = renderWithProviders(<p>page</p>);
  notify({ title, description: 'Saved.' });
  await screen.findByText(title);
  return { ...view, toast: screen.getByRole('status') };
}

function drag(toast: HTMLElement, distance: number, { release = true } = {}) {
  fireEvent.pointerDown(toast, { pointerId: 1, button: 0, clientX: 100, clientY: 10 });
  fireEvent.pointerMove(toast, { pointerId: 1, clientX: 100 + distance, clientY: 10 });
  if (release) fireEvent.pointerUp(toast, { pointerId: 1, clientX: 100 + distance, clientY: 10 });
}

describe('toasts', () => {
  it('follow the pointer to the right while dragged', async () => {
    const { toast } = await showToast();
    drag(toast, 30, { release: false });
    expect(toast.style.transform).toBe('translateX(30px)');
    fireEvent.pointerMove(toast, { pointerId: 1, clientX: 60, clientY: 10 });
    expect(toast.style.transform).toBe(''); // never to the left
  });

  it('snap back when released within 50 px', async () => {
    const { toast } = await showToast();
    drag(toast, 50);
    expect(screen.getByText('Bank account added')).toBeInTheDocument();
    expect(toast.style.transform).toBe('');
  });

  it('are removed when swiped beyond 50 px to the right', async () => {
    const { toast } = await showToast();
    drag(toast, 51);
    await waitFor(() => expect(screen.queryByText('Bank account added')).not.toBeInTheDocument());
  });

  it('still close with the close button', async () => {
    const { user } = await showToast();
    await user.click(screen.getByRole('button', { name: 'Close notification' }));
    await waitFor(() => expect(screen.queryByText('Bank account added')).not.toBeInTheDocument());
  });

  it('carry an optional action: its button runs it and closes the toast', async () => {
    const onClick = vi.fn();
    const { user } = renderWithProviders(<p>page</p>);
    notify({
      title: 'Insufficient balance',
      description: 'Please recharge.',
      variant: 'destructive',
      action: { label: 'Recharge', onClick },
    });
    await user.click(await screen.findByRole('button', { name: 'Recharge' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByText('Insufficient balance')).not.toBeInTheDocument());
  });

  it('show no action button without an action', async () => {
    await showToast();
    expect(
      screen.getAllByRole('button').map((button) => button.getAttribute('aria-label') ?? button.textContent),
    ).toEqual(['Close notification']);
  });

  it('show the latest of rapid notifications at once', async () => {
    await showToast('First');
    notify({ title: 'Second' });
    notify({ title: 'Third' });
    // At once, within the same render: not after the old toast's exit animation (timers never run here).
    await act(async () => {});
    expect(screen.getByText('Third')).toBeInTheDocument();
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.queryByText('Second')).not.toBeInTheDocument();
  });

  it.each([
    [true, 'bottom-end'],
    [false, 'top'],
  ])('F8 focuses the one toast area for the current width (wide: %s → %s)', async (wide, placement) => {
    setWidth(wide);
    await showToast();
    const regions = screen.getAllByRole('region');
    expect(regions).toHaveLength(1);
    expect(regions[0]).toHaveAttribute('data-placement', placement);
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    await waitFor(() => expect(regions[0]).toHaveFocus());
  });
});

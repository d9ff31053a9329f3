/**
 * Toasts: one at a time, 5 s, an optional action button, closable with the close button
 * or swiped away to the right (released beyond 50 px; Chakra's toast has no swipe, so the pointer handling
 * is ours), destructive = error style; at the top on small screens and bottom-right from 768 px, at most 420 px wide. One Ark
 * toaster per placement: only the one for the current width is rendered, so only it owns the F8 hotkey,
 * and `notify` shows the toast on it. Loaded after the first paint through toaster.tsx, which the app
 * imports instead.
 */
import { Portal, Stack, Toast, Toaster as ChakraToaster, createToaster } from '@chakra-ui/react';
import { useEffect, useRef, useState, useSyncExternalStore, type PointerEvent, type ReactNode } from 'react';
import { MOBILE_BREAKPOINT_PX } from '@/config/paths.ts';
import type { NotifyOptions } from './toast-options.ts';

/** Distance to the right beyond which a released toast is removed. */
export const SWIPE_THRESHOLD_PX = 50;

const options = { max: 1, duration: 5000, hotkey: ['F8'], overlap: false };
const topToaster = createToaster({ ...options, placement: 'top' as const });
const cornerToaster = createToaster({ ...options, placement: 'bottom-end' as const });
type Store = typeof topToaster;

const wideQuery = `(min-width: ${MOBILE_BREAKPOINT_PX}px)`;

function isWide(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(wideQuery).matches
    : true;
}

function subscribeToWidth(onChange: () => void): () => void {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(wideQuery);
  query.addEventListener?.('change', onChange);
  return () => query.removeEventListener?.('change', onChange);
}

/** The toaster for the current width, and the other one. */
function toasters(wide = isWide()): [current: Store, other: Store] {
  return wide ? [cornerToaster, topToaster] : [topToaster, cornerToaster];
}

/** Removes every toast (used on sign-out and between tests). */
export function dismissAllToasts(): void {
  topToaster.remove();
  cornerToaster.remove();
}

/**
 * Shows a toast, replacing the one on screen. The old one is removed at once rather than dismissed:
 * with max 1 a dismissed toast keeps its place until its exit ends and the new one would queue behind it.
 */
export function notify({ title, description, variant = 'default', action }: NotifyOptions): void {
  const [target, other] = toasters();
  other.remove();
  target.remove();
  target.create({ title, description, action, type: variant === 'destructive' ? 'error' : 'info', closable: true });
}

type Swipe = { phase: 'idle' } | { phase: 'move'; pointerId: number; startX: number; x: number } | { phase: 'cancel' };

/**
 * A toast that follows the pointer to the right while dragged, and on release is removed beyond
 * SWIPE_THRESHOLD_PX or slides back. Presses on its buttons (close) are left to them.
 */
function SwipeableToast({
  toaster,
  id,
  destructive,
  children,
}: {
  toaster: Store;
  id: string;
  destructive: boolean;
  children: ReactNode;
}) {
  const [swipe, setSwipe] = useState<Swipe>({ phase: 'idle' });
  const moving = swipe.phase === 'move';

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || (event.target as Element).closest('button, a, input, select, textarea')) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    setSwipe({ phase: 'move', pointerId: event.pointerId, startX: event.clientX, x: 0 });
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (swipe.phase !== 'move' || event.pointerId !== swipe.pointerId) return;
    setSwipe({ ...swipe, x: Math.max(0, event.clientX - swipe.startX) });
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (swipe.phase !== 'move' || event.pointerId !== swipe.pointerId) return;
    event.currentTarget.releasePointerCapture?.(event.pointerId);
    const x = Math.max(0, event.clientX - swipe.startX);
    if (x > SWIPE_THRESHOLD_PX) toaster.remove(id);
    else setSwipe(x > 0 ? { phase: 'cancel' } : { phase: 'idle' });
  };
  const onPointerCancel = () => {
    if (swipe.phase === 'move') setSwipe(swipe.x > 0 ? { phase: 'cancel' } : { phase: 'idle' });
  };
  useEffect(() => {
    // The slide back takes 200 ms; then the recipe's own transitions (the exit) apply again.
    if (swipe.phase !== 'cancel') return;
    const timer = setTimeout(() => setSwipe({ phase: 'idle' }), 250);
    return () => clearTimeout(timer);
  }, [swipe.phase]);

  return (
    <Toast.Root
      width="full"
      maxW="420px"
      data-variant={destructive ? 'destructive' : 'default'}
      data-swipe={swipe.phase === 'idle' ? undefined : swipe.phase}
      touchAction="pan-y"
      userSelect={moving ? 'none' : undefined}
      cursor={moving ? 'grabbing' : undefined}
      css={{ '&[data-swipe=cancel]': { transition: 'transform 200ms ease-out' } }}
      style={{ transform: moving && swipe.x > 0 ? `translateX(${swipe.x}px)` : undefined }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
    >
      {children}
    </Toast.Root>
  );
}

export function ToastRegion() {
  const wide = useSyncExternalStore(subscribeToWidth, isWide, () => true);
  const [toaster] = toasters(wide);
  const previous = useRef(toaster);
  useEffect(() => {
    // The toaster of the old width is no longer rendered: its toast would wait there unseen.
    if (previous.current !== toaster) previous.current.remove();
    previous.current = toaster;
  }, [toaster]);

  return (
    <Portal>
      <ChakraToaster
        key={wide ? 'corner' : 'top'}
        toaster={toaster}
        insetInline={{ mdDown: '4' }}
        maxW="420px"
        w="calc(100% - 2rem)"
      >
        {(toast) => (
          <SwipeableToast toaster={toaster} id={toast.id!} destructive={toast.type === 'error'}>
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.action && <Toast.ActionTrigger>{toast.action.label}</Toast.ActionTrigger>}
            {toast.closable && <Toast.CloseTrigger aria-label="Close notification" />}
          </SwipeableToast>
        )}
      </ChakraToaster>
    </Portal>
  );
}

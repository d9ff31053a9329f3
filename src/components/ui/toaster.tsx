/**
 * `notify` and the app's `<Toaster />`, without the toast code itself (toast-region.tsx, ≈ 22 KB gzip):
 * that loads after the first paint, or at the first `notify`, which waits for it in a queue.
 */
import { deferredModule, useDeferredModule } from './deferred-module.ts';

/** A button on the toast (spec §3.9 "optional action"); pressing it runs onClick and closes the toast. */
export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface NotifyOptions {
  title?: string;
  description?: string;
  variant?: 'default' | 'destructive';
  action?: ToastAction;
}

const queued: NotifyOptions[] = [];
const toastRegion = deferredModule(() =>
  import('./toast-region.tsx').then((module) => {
    for (const options of queued.splice(0)) module.notify(options);
    return module;
  }),
);

/** Shows a toast, replacing the one on screen. */
export function notify(options: NotifyOptions): void {
  const module = toastRegion.current();
  if (module) return module.notify(options);
  queued.push(options);
  toastRegion.load();
}

/** Removes every toast (used on sign-out and between tests). */
export function dismissAllToasts(): void {
  queued.length = 0;
  toastRegion.current()?.dismissAllToasts();
}

export function Toaster() {
  const module = useDeferredModule(toastRegion);
  return module ? <module.ToastRegion /> : null;
}

/**
 * `notify` and the app's `<Toaster />`, without the toast code itself (toast-region.tsx):
 * that loads after the first paint, or at the first `notify`, which waits for it in a queue.
 */
import { deferredModule, useDeferredModule } from './deferred-module.ts';
import type { NotifyOptions } from './toast-options.ts';

export type { NotifyOptions, ToastAction } from './toast-options.ts';

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

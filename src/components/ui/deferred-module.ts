/**
 * Code the first screen does not need (the toast region, the header's menu and dialog, the wallet's
 * forms) loads after the first paint, when the browser is idle, or at once when the user asks for it.
 * Requests made before the first paint share the mobile bandwidth and main thread with the page itself
 * and push its first paint back.
 */
import { startTransition, useEffect, useState } from 'react';

export interface DeferredModule<T> {
  /** The module once it has loaded. */
  current(): T | undefined;
  /** Starts loading it (once; a failed load is retried on the next call). */
  load(): void;
  /** Resolves when it has loaded, whoever started the load. */
  loaded: Promise<T>;
}

export function deferredModule<T>(importer: () => Promise<T>): DeferredModule<T> {
  let module: T | undefined;
  let loading = false;
  let arrived!: (module: T) => void;
  const loaded = new Promise<T>((resolve) => (arrived = resolve));
  return {
    current: () => module,
    load() {
      if (loading || module) return;
      loading = true;
      importer().then(
        (imported) => {
          module = imported;
          arrived(imported);
        },
        () => (loading = false),
      );
    },
    loaded,
  };
}

/** Longest wait for the first paint (a page in a background tab does not paint). */
const FIRST_PAINT_LIMIT_MS = 5000;
let firstPaint: Promise<void> | undefined;

/**
 * Resolves on the page's first contentful paint as the browser reports it (an animation frame or timer
 * can run before that frame is shown), at once where paint entries are not supported (tests).
 */
function whenFirstPainted(): Promise<void> {
  firstPaint ??= new Promise((resolve) => {
    if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint'))
      return resolve();
    setTimeout(resolve, FIRST_PAINT_LIMIT_MS);
    const observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'paint', buffered: true });
  });
  return firstPaint;
}

/** Runs `callback` once the page has painted and the browser is idle; returns a cancel function. */
export function afterFirstPaint(callback: () => void): () => void {
  let cancelled = false;
  const run = () => {
    if (!cancelled) callback();
  };
  void whenFirstPainted().then(() =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 1000 }) : setTimeout(run, 0),
  );
  return () => {
    cancelled = true;
  };
}

/**
 * The module once loaded; starts loading it after the first paint. Its arrival re-renders in a transition,
 * which yields to the browser every few milliseconds instead of one long task.
 */
export function useDeferredModule<T>(deferred: DeferredModule<T>): T | undefined {
  const [module, setModule] = useState(deferred.current);
  const loaded = module !== undefined;
  useEffect(() => {
    if (loaded) return;
    let mounted = true;
    void deferred.loaded.then((arrived) => mounted && startTransition(() => setModule(() => arrived)));
    const cancel = afterFirstPaint(deferred.load);
    return () => {
      mounted = false;
      cancel();
    };
  }, [deferred, loaded]);
  return module;
}

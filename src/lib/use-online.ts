/**
 * Whether the device is online, as TanStack Query sees it (the browser's online/offline events, starting
 * from navigator.onLine: query-client.ts). Offline, reads pause and keep what was last loaded; back online,
 * every query refetches.
 */
import { onlineManager } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';

const subscribe = (listener: () => void) => onlineManager.subscribe(listener);
const isOnline = () => onlineManager.isOnline();

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}

/**
 * Whether a screen has shown without its read (it was paused offline); stays true for the screen's life, so
 * the refetch once back online updates the screen in place instead of replacing it with a spinner.
 */
export function useShownWithoutRead(paused: boolean): boolean {
  const [shown, setShown] = useState(paused);
  if (paused && !shown) setShown(true);
  return shown;
}

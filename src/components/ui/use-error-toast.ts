import { useEffect } from 'react';
import { errorMessage } from '@/lib/api-client.ts';
import { notify } from './toaster.tsx';

/** Shows a destructive toast ('Error loading …') once per failed load. */
export function useErrorToast(error: unknown, title: string): void {
  useEffect(() => {
    if (error) notify({ title, description: errorMessage(error), variant: 'destructive' });
  }, [error, title]);
}

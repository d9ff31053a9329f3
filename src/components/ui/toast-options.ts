/** What a toast shows: shared by `notify` (toaster.tsx) and the toast code it loads (toast-region.tsx). */
/** An optional button on the toast; pressing it runs onClick and closes the toast. */
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

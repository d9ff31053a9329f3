/**
 * A controlled confirmation: title, body, a Cancel (or other second) button and the confirm button, which
 * shows the pending state. Every irreversible action (approve, reject, declare winner, abandon, a break the
 * player cannot lift) and every question that needs an answer goes through one.
 */
import { Button } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { DialogShell, type DialogShellProps } from './dialog-shell.tsx';

export interface ConfirmDialogProps extends Pick<
  DialogShellProps,
  'open' | 'onOpenChange' | 'title' | 'description' | 'closeOnInteractOutside'
> {
  children?: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
  confirmDisabled?: boolean;
  confirmPalette?: string;
  /** the second button's label; null leaves only the confirm button and an × to close */
  cancelLabel?: string | null;
  /** what the second button does (closing the dialog unless given) */
  onCancel?: () => void;
}

export function ConfirmDialog({
  children,
  confirmLabel,
  onConfirm,
  pending = false,
  confirmDisabled = false,
  confirmPalette = 'blue',
  cancelLabel = 'Cancel',
  onCancel,
  ...shell
}: ConfirmDialogProps) {
  return (
    <DialogShell
      {...shell}
      alert
      closeButton={cancelLabel === null}
      footer={
        <>
          {cancelLabel !== null && (
            <Button variant="outline" onClick={onCancel ?? (() => shell.onOpenChange(false))}>
              {cancelLabel}
            </Button>
          )}
          <Button
            colorPalette={confirmPalette}
            onClick={onConfirm}
            disabled={pending || confirmDisabled}
            loading={pending}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </DialogShell>
  );
}

/**
 * A controlled dialog holding a small form: title, the fields, Cancel and a submit button. `onSubmit` is the
 * form's submit handler (react-hook-form's handleSubmit(...)): Enter in a field submits as the button does.
 */
import { Button, Stack } from '@chakra-ui/react';
import type { FormEventHandler, ReactNode } from 'react';
import { DialogShell, type DialogShellProps } from './dialog-shell.tsx';

export interface FormDialogProps extends Pick<DialogShellProps, 'open' | 'onOpenChange' | 'title' | 'description'> {
  children: ReactNode;
  submitLabel: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitDisabled?: boolean;
  pending?: boolean;
}

export function FormDialog({ children, submitLabel, onSubmit, submitDisabled, pending, ...shell }: FormDialogProps) {
  return (
    <DialogShell
      {...shell}
      wrap={(content) => (
        <form onSubmit={onSubmit} noValidate>
          {content}
        </form>
      )}
      footer={
        <>
          <Button variant="outline" onClick={() => shell.onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" colorPalette="blue" disabled={submitDisabled || pending} loading={pending}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <Stack gap="4">{children}</Stack>
    </DialogShell>
  );
}

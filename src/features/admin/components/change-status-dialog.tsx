/** Change a user's status freely; Update is disabled while unchanged or saving. */
import { Button, NativeSelect } from '@chakra-ui/react';
import { useState } from 'react';
import { FormField } from '../../../components/ui/form-field.tsx';
import { notify } from '../../../components/ui/toaster.tsx';
import type { User } from '../../../domain/entities.ts';
import { USER_STATUSES, type UserStatus } from '../../../domain/limits.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { useUpdateUserStatus } from '../api/update-user-status.ts';
import { capitalize } from '../lib/labels.ts';
import { FormDialog } from './form-dialog.tsx';

export function ChangeStatusDialog({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<UserStatus>(user.status);
  const update = useUpdateUserStatus();

  const onOpenChange = (next: boolean) => {
    if (next) setStatus(user.status);
    setOpen(next);
  };
  const onSubmit = () =>
    update.mutate(
      { userId: user.id, status },
      {
        onSuccess: () => {
          setOpen(false);
          notify({ title: 'Status updated', description: `${user.name} is now ${status}.` });
        },
        onError: (error) =>
          notify({ title: 'Failed to update status', description: errorMessage(error), variant: 'destructive' }),
      },
    );

  return (
    <>
      <Button size="sm" variant="outline" onClick={() => onOpenChange(true)}>
        Change Status
      </Button>
      <FormDialog
        open={open}
        onOpenChange={onOpenChange}
        title="Change User Status"
        description={`Current status: ${capitalize(user.status)}. Suspended users cannot bet, deposit or withdraw; banned users are signed out and cannot sign in.`}
        submitLabel="Update"
        onSubmit={onSubmit}
        submitDisabled={status === user.status}
        pending={update.isPending}
      >
        <FormField label="Status">
          <NativeSelect.Root>
            <NativeSelect.Field value={status} onChange={(event) => setStatus(event.target.value as UserStatus)}>
              {USER_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {capitalize(value)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </FormField>
      </FormDialog>
    </>
  );
}

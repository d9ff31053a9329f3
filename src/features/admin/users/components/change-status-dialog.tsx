/** Change a user's status freely; Update is disabled while unchanged or saving. */
import { Button, NativeSelect } from '@chakra-ui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { FormDialog } from '@/components/ui/form-dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import type { User } from '@/domain/entities.ts';
import { USER_STATUSES } from '@/domain/limits.ts';
import { userStatusSchema } from '@/domain/schemas.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useUpdateUserStatus } from '../api/update-user-status.ts';
import { capitalize } from '@/features/admin/shared/lib/labels.ts';

type FormValues = z.infer<typeof userStatusSchema>;

export function ChangeStatusDialog({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const update = useUpdateUserStatus();
  const { register, handleSubmit, reset, control } = useForm<FormValues>({
    resolver: zodResolver(userStatusSchema),
    defaultValues: { status: user.status },
  });
  const status = useWatch({ control, name: 'status' });

  const onOpenChange = (next: boolean) => {
    if (next) reset({ status: user.status });
    setOpen(next);
  };
  const onSubmit = handleSubmit((values) =>
    update.mutate(
      { userId: user.id, status: values.status },
      {
        onSuccess: () => {
          setOpen(false);
          notify({ title: 'Status updated', description: `${user.name} is now ${values.status}.` });
        },
        onError: (error) =>
          notify({ title: 'Failed to update status', description: errorMessage(error), variant: 'destructive' }),
      },
    ),
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
            <NativeSelect.Field {...register('status')}>
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

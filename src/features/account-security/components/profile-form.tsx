/**
 * The user's name and phone number. A phone number belongs to one account: one another account has is
 * refused ('409: This phone number is already in use'); an empty one is removed.
 */
import { Button, Input } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field.tsx';
import { FormStack } from '@/components/ui/form-stack.tsx';
import { notify } from '@/components/ui/toaster.tsx';
import type { User } from '@/domain/entities.ts';
import type { ProfileFormValues, ProfileInput } from '@/domain/schemas.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { lazyZodResolver } from '@/lib/lazy-zod-resolver.ts';
import { useUpdateProfile } from '../api/profile.ts';

const resolver = lazyZodResolver(() => import('@/domain/schemas.ts').then((schemas) => schemas.profileFormSchema));

export function ProfileForm({ user }: { user: User }) {
  const update = useUpdateProfile();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<ProfileFormValues, unknown, ProfileInput>({
    resolver,
    defaultValues: { name: user.name, phone: user.phone ?? '' },
  });

  const onSubmit = handleSubmit((changes) => {
    update.mutate(changes, {
      onSuccess: (saved) => {
        reset({ name: saved.name, phone: saved.phone ?? '' });
        notify({ title: 'Profile updated', description: 'Your name and phone number have been saved.' });
      },
      onError: (error) =>
        notify({ title: 'Failed to update profile', description: errorMessage(error), variant: 'destructive' }),
    });
  });

  return (
    <FormStack onSubmit={onSubmit} noValidate aria-label="Profile" maxW="sm">
      <FormField label="Name" error={errors.name?.message}>
        <Input {...register('name')} autoComplete="name" />
      </FormField>
      <FormField label="Phone (optional)" error={errors.phone?.message}>
        <Input {...register('phone')} type="tel" autoComplete="tel" />
      </FormField>
      <Button
        type="submit"
        colorPalette="blue"
        alignSelf="flex-start"
        disabled={!isDirty}
        loading={update.isPending}
        loadingText="Saving..."
      >
        Save profile
      </Button>
    </FormStack>
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@/domain/entities.ts';
import type { UserStatus } from '@/domain/limits.ts';
import { api } from '@/lib/api-client.ts';
import { invalidateUserStatus } from '@/features/admin/shared/api/invalidate.ts';

/** PATCH /api/admin/users/{id}/status (banning ends the user's sessions). */
export function updateUserStatus({ userId, status }: { userId: number; status: UserStatus }): Promise<User> {
  return api.patch<User>(`/api/admin/users/${userId}/status`, { status });
}

export function useUpdateUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserStatus,
    onSuccess: () => invalidateUserStatus(queryClient),
  });
}

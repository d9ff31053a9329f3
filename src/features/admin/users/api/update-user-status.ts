import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@/domain/entities.ts';
import type { UserStatus } from '@/domain/limits.ts';
import { answer, client } from '@/lib/api-client.ts';
import { invalidateUserStatus } from '@/features/admin/shared/api/invalidate.ts';

/** PATCH /api/admin/users/{id}/status (banning ends the user's sessions). */
export function updateUserStatus({ userId, status }: { userId: number; status: UserStatus }): Promise<User> {
  return answer(client.PATCH('/api/admin/users/{id}/status', { params: { path: { id: userId } }, body: { status } }));
}

export function useUpdateUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserStatus,
    onSuccess: () => invalidateUserStatus(queryClient),
  });
}

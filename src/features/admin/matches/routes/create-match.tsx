/** New match: back to the list, 'Create Match' and the form (src/features/admin/components/create-match-form.tsx). */
import { Box, Button, Card } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { adminPaths } from '@/config/paths.ts';
import { CreateMatchForm } from '../components/create-match-form.tsx';
import { PageHeader } from '@/features/admin/shared/components/page-header.tsx';

export function CreateMatchRoute() {
  return (
    <Box maxW="3xl">
      <Button asChild variant="ghost" size="sm" mb="2">
        <RouterLink to={adminPaths.matches}>← Back to Matches</RouterLink>
      </Button>
      <PageHeader title="Create Match" />
      <Card.Root>
        <Card.Body>
          <CreateMatchForm />
        </Card.Body>
      </Card.Root>
    </Box>
  );
}

/** A titled card of a settings-like page (Responsible gambling, Security): heading, one line about it, content. */
import { Card, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export function SectionCard({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
  return (
    <Card.Root as="section" aria-labelledby={id}>
      <Card.Header>
        <Heading as="h2" size="md" id={id}>
          {title}
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          {description}
        </Text>
      </Card.Header>
      <Card.Body>
        <Stack gap="5">{children}</Stack>
      </Card.Body>
    </Card.Root>
  );
}

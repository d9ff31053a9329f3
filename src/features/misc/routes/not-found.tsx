import { Card, Container, Heading, HStack, Text } from '@chakra-ui/react';
import { AppIcon } from '@/components/ui/icons.tsx';

/** A centred card with a warning icon, the heading and the hint. */
export function NotFoundRoute() {
  return (
    <Container maxW="md" py="16">
      <Card.Root>
        <Card.Body gap="3">
          <HStack gap="3">
            <AppIcon name="warning" boxSize="8" color="red.600" />
            <Heading as="h1" size="xl">
              404 Page Not Found
            </Heading>
          </HStack>
          <Text color="fg.muted">Did you forget to add the page to the router?</Text>
        </Card.Body>
      </Card.Root>
    </Container>
  );
}

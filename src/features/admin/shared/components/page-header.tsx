import { Flex, Heading, HStack } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** The title row of an admin page, with actions on the right. */
export function PageHeader({ title, badge, actions }: { title: ReactNode; badge?: ReactNode; actions?: ReactNode }) {
  return (
    <Flex
      justify="space-between"
      align={{ base: 'stretch', sm: 'center' }}
      direction={{ base: 'column', sm: 'row' }}
      gap="3"
      mb="6"
    >
      <HStack gap="3">
        <Heading as="h1" size="2xl">
          {title}
        </Heading>
        {badge}
      </HStack>
      {actions && <HStack gap="2">{actions}</HStack>}
    </Flex>
  );
}

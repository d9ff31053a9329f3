import { Card, Heading, HStack, Text, type CardBodyProps } from '@chakra-ui/react';
import { useId, type ReactNode } from 'react';

interface SectionCardProps extends CardBodyProps {
  /** the heading, which also names the section (a region of the page) */
  title: string;
  /** a line under the heading */
  description?: ReactNode;
  /** a control beside the heading */
  action?: ReactNode;
  children: ReactNode;
}

/** A titled card of a back-office page; the rest of the props style its body. */
export function SectionCard({ title, description, action, children, ...body }: SectionCardProps) {
  const headingId = useId();
  const heading = (
    <Heading id={headingId} size="md">
      {title}
    </Heading>
  );
  return (
    <Card.Root as="section" aria-labelledby={headingId}>
      <Card.Header>
        {action ? (
          <HStack justify="space-between">
            {heading}
            {action}
          </HStack>
        ) : (
          heading
        )}
        {description && (
          <Text fontSize="sm" color="fg.muted">
            {description}
          </Text>
        )}
      </Card.Header>
      <Card.Body {...body}>{children}</Card.Body>
    </Card.Root>
  );
}

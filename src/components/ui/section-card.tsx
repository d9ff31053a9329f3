import { Card, Heading, HStack, Text, type CardBodyProps } from '@chakra-ui/react';
import { useId, type ReactNode } from 'react';

interface SectionCardProps extends CardBodyProps {
  /** the heading, which also names the section (a region of the page) */
  title: string;
  /** the heading's id (one is made when none is given) */
  id?: string;
  /** a line under the heading */
  description?: ReactNode;
  /** a control beside the heading */
  action?: ReactNode;
  children: ReactNode;
}

/**
 * A titled card of a page made of sections (Responsible gambling, Security, the back office's screens): the
 * heading, a line about it, a control beside the heading; the rest of the props style its body.
 */
export function SectionCard({ title, id, description, action, children, ...body }: SectionCardProps) {
  const madeId = useId();
  const headingId = id ?? madeId;
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

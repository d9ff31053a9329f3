/**
 * /account/security (from the user menu; every signed-in user): change the password, see and end the
 * sessions, and for administrators two-factor sign-in.
 */
import { Card, Container, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { ChangePasswordForm } from '../components/change-password-form.tsx';
import { SessionList } from '../components/session-list.tsx';
import { TwoFactorSection } from '../components/two-factor-section.tsx';

function Section({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
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
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}

export function AccountSecurityRoute() {
  return (
    <Container maxW="3xl" py="6">
      <Stack gap="5">
        <Heading as="h1" size="2xl">
          Security
        </Heading>
        <Section id="password" title="Password" description="Changing it signs you out on every other device.">
          <ChangePasswordForm />
        </Section>
        <Section id="sessions" title="Where you are signed in" description="Sign out any device you do not recognise.">
          <SessionList />
        </Section>
        <Section id="two-factor" title="Two-factor sign-in" description="A code from an authenticator app on every sign-in.">
          <TwoFactorSection />
        </Section>
      </Stack>
    </Container>
  );
}

/**
 * /account/security (from the user menu; every signed-in user): the name and phone number, change the
 * password, see and end the sessions, and for administrators two-factor sign-in.
 */
import { Container, Heading, Stack } from '@chakra-ui/react';
import { SectionCard } from '@/components/ui/section-card.tsx';
import { useUser } from '@/lib/auth.ts';
import { ChangePasswordForm } from '../components/change-password-form.tsx';
import { ProfileForm } from '../components/profile-form.tsx';
import { SessionList } from '../components/session-list.tsx';
import { TwoFactorSection } from '../components/two-factor-section.tsx';

export function AccountSecurityRoute() {
  const { data: user } = useUser();
  return (
    <Container maxW="3xl" py="6">
      <Stack gap="5">
        <Heading as="h1" size="2xl">
          Security
        </Heading>
        {user && (
          <SectionCard id="profile" gap="5" title="Profile" description="A phone number belongs to one account.">
            <ProfileForm user={user} />
          </SectionCard>
        )}
        <SectionCard
          id="password"
          gap="5"
          title="Password"
          description="Changing it signs you out on every other device."
        >
          <ChangePasswordForm />
        </SectionCard>
        <SectionCard
          id="sessions"
          gap="5"
          title="Where you are signed in"
          description="Sign out any device you do not recognise."
        >
          <SessionList />
        </SectionCard>
        <SectionCard
          id="two-factor"
          gap="5"
          title="Two-factor sign-in"
          description="A code from an authenticator app on every sign-in."
        >
          <TwoFactorSection />
        </SectionCard>
      </Stack>
    </Container>
  );
}

/**
 * /auth: Login and Register tabs; a signed-in visitor goes to /. After signing in, the user
 * returns to the page the route guard sent them from (`state.from`, same-app paths only), else to /.
 */
import { Box, Card, Container, Heading, Tabs, Text } from '@chakra-ui/react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { PageSpinner } from '@/components/ui/page-spinner.tsx';
import { APP_NAME } from '@/config/app.ts';
import { paths } from '@/config/paths.ts';
import { useUser } from '@/lib/auth.ts';
import { LoginForm } from '../components/login-form.tsx';
import { RegisterForm } from '../components/register-form.tsx';

/** The `from` path saved by the route guard when it is a path of this app ('/…', not '//host' or a URL). */
function returnPath(state: unknown): string {
  const from = typeof state === 'object' && state !== null && 'from' in state ? state.from : undefined;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\'))
    return paths.home;
  if (from === paths.auth || from.startsWith(`${paths.auth}?`) || from.startsWith(`${paths.auth}#`)) return paths.home;
  return from;
}

export function AuthRoute() {
  const { data: user, isPending } = useUser();
  const navigate = useNavigate();
  const target = returnPath(useLocation().state);
  if (isPending) return <PageSpinner />;
  // Signed in: to /, or back to the guarded page when the guard sent them here (`from` is
  // only saved for a visitor who was not signed in, so this is the sign-in that just happened).
  if (user) return <Navigate to={target} replace />;
  const done = () => navigate(target, { replace: true });

  return (
    <Container maxW="md" py={{ base: '6', md: '12' }}>
      <Box textAlign="center" mb="6">
        <Heading as="h1" size="2xl">
          {APP_NAME}
        </Heading>
        <Text color="fg.muted" mt="1">
          Sign in or create an account to bet at fixed odds.
        </Text>
      </Box>
      <Card.Root>
        <Card.Body>
          <Tabs.Root defaultValue="login" variant="enclosed" fitted lazyMount unmountOnExit>
            <Tabs.List>
              <Tabs.Trigger value="login">Login</Tabs.Trigger>
              <Tabs.Trigger value="register">Register</Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="login">
              <LoginForm onSuccess={done} />
            </Tabs.Content>
            <Tabs.Content value="register">
              <RegisterForm onSuccess={done} />
            </Tabs.Content>
          </Tabs.Root>
        </Card.Body>
      </Card.Root>
    </Container>
  );
}

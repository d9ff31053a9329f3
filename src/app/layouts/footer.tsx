import { Box, Container, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { paths } from '@/config/paths.ts';

export function Footer() {
  return (
    <Box as="footer" borderTopWidth="1px" bg="bg.subtle" mt="12" pb={{ base: '20', md: '0' }}>
      <Container maxW="6xl" py="6">
        <Stack gap="2" align="center">
          <Text fontSize="sm" color="fg.muted" textAlign="center">
            This platform is for entertainment purposes only. Please bet responsibly.
          </Text>
          <Link asChild fontSize="sm" color="fg.muted" textDecoration="underline">
            <RouterLink to={paths.responsibleGambling}>Responsible gambling</RouterLink>
          </Link>
        </Stack>
      </Container>
    </Box>
  );
}

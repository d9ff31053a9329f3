import { Box, Container, Text } from '@chakra-ui/react';

export function Footer() {
  return (
    <Box as="footer" borderTopWidth="1px" bg="bg.subtle" mt="12" pb={{ base: '20', md: '0' }}>
      <Container maxW="6xl" py="6">
        <Text fontSize="sm" color="fg.muted" textAlign="center">
          This platform is for entertainment purposes only. Please bet responsibly.
        </Text>
      </Container>
    </Box>
  );
}

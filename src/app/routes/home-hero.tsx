import { Box, Heading, Text } from '@chakra-ui/react';

export function Hero() {
  return (
    <Box as="section" bg="blue.900" color="white" rounded="xl" p={{ base: '6', md: '10' }}>
      <Heading as="h1" size={{ base: '2xl', md: '4xl' }}>
        IPL Season 2025
      </Heading>
      <Text mt="2" color="blue.100">
        Back your team at fixed odds: a bet is paid at the price it was placed at.
      </Text>
    </Box>
  );
}

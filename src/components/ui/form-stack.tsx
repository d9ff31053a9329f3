import { chakra } from '@chakra-ui/react';

/** A <form> laid out as a vertical stack. */
export const FormStack = chakra('form', { base: { display: 'flex', flexDirection: 'column', gap: '4' } });

/** The product's name as the header, the auth page and the welcome toast show it. */
export const APP_NAME = 'Cricket League Betting';

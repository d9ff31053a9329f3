/** A session's browser in words ('Chrome on Android'), from the user agent it signed in with (bowser). */
import Bowser from 'bowser';

export function deviceName(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const { browser, os } = Bowser.getParser(userAgent).getResult();
  if (!browser.name && !os.name) return 'Unknown device';
  if (!os.name) return browser.name!;
  return browser.name ? `${browser.name} on ${os.name}` : os.name;
}

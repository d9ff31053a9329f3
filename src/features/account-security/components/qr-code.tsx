/**
 * The QR code of an otpauth:// URI for the authenticator app. The `qrcode` library is loaded only here, on
 * demand, so it never weighs on the first load of any page.
 */
import { Image, Skeleton } from '@chakra-ui/react';
import { useEffect, useState } from 'react';

const SIZE_PX = 192;

export function QrCode({ value }: { value: string }) {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    import('qrcode')
      .then((qrcode) => qrcode.toDataURL(value, { width: SIZE_PX, margin: 1 }))
      .then((url) => current && setImage(url))
      .catch(() => current && setImage(null));
    return () => {
      current = false;
    };
  }, [value]);
  if (!image) return <Skeleton width={`${SIZE_PX}px`} height={`${SIZE_PX}px`} />;
  return <Image src={image} alt="QR code for your authenticator app" htmlWidth={SIZE_PX} htmlHeight={SIZE_PX} />;
}

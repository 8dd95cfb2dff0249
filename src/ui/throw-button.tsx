'use client';

import { useState } from 'react';
import { Button } from './button';

/** Renders fine until clicked; then its next render throws, as a broken client component would. */
export function ThrowButton() {
  const [broken, setBroken] = useState(false);
  if (broken) throw new Error('diagnostic client-side exception');
  return (
    <Button variant="primary" onClick={() => setBroken(true)}>
      Throw
    </Button>
  );
}

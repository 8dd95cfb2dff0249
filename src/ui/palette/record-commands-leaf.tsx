'use client';

import { useEffect } from 'react';
import { showRecordCommands, type RecordCommand } from './record-commands';

/**
 * Hands the record page's actions to the palette and the `e` key while the page is shown.
 * Renders nothing: the page itself keeps its buttons and forms.
 */
export function RecordCommandsLeaf({ title, commands }: { title: string; commands: readonly RecordCommand[] }) {
  const key = JSON.stringify(commands);
  useEffect(() => showRecordCommands({ title, commands: JSON.parse(key) as RecordCommand[] }), [title, key]);
  return null;
}

import { describe, expect, it } from 'vitest';
import { isTypingTarget, shortcutFor, type KeyPress, type KeyTarget } from './shortcut-keys';

const body: KeyTarget = { tagName: 'BODY' };
const press = (key: string, target: KeyTarget | null = body, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target,
  ...mods,
});
const action = (p: KeyPress, pending: string | null = null) => shortcutFor(p, pending).action;

describe('isTypingTarget', () => {
  it('counts text inputs, textareas, selects and editable elements as typing', () => {
    for (const type of ['text', 'search', 'email', 'number', 'password', 'date', 'url'])
      expect(isTypingTarget({ tagName: 'INPUT', type }), type).toBe(true);
    expect(isTypingTarget({ tagName: 'input' })).toBe(true);
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingTarget({ tagName: 'SELECT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
  });

  it('leaves checkboxes, buttons, links and the page free for shortcuts', () => {
    for (const type of ['checkbox', 'radio', 'submit', 'button', 'CHECKBOX'])
      expect(isTypingTarget({ tagName: 'INPUT', type }), type).toBe(false);
    expect(isTypingTarget({ tagName: 'A' })).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget(body)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});

describe('shortcutFor', () => {
  it('maps the single keys', () => {
    expect(action(press('j'))).toBe('next-row');
    expect(action(press('k'))).toBe('previous-row');
    expect(action(press('x'))).toBe('select-row');
    expect(action(press('e'))).toBe('edit');
    expect(action(press('?'))).toBe('help');
    expect(action(press('/'))).toBe('search');
    expect(action(press('q'))).toBeNull();
    expect(action(press('J'))).toBeNull();
  });

  it('never fires a single key while typing or with a modifier', () => {
    expect(action(press('j', { tagName: 'INPUT', type: 'search' }))).toBeNull();
    expect(action(press('e', { tagName: 'TEXTAREA' }))).toBeNull();
    expect(action(press('?', { tagName: 'P', isContentEditable: true }))).toBeNull();
    expect(action(press('j', body, { ctrlKey: true }))).toBeNull();
    expect(action(press('e', body, { metaKey: true }))).toBeNull();
    expect(action(press('x', body, { altKey: true }))).toBeNull();
    expect(action(press('j', body, { isComposing: true }))).toBeNull();
  });

  it('opens the palette with Ctrl+K or Cmd+K, even from a field', () => {
    expect(action(press('k', body, { ctrlKey: true }))).toBe('palette');
    expect(action(press('K', body, { metaKey: true }))).toBe('palette');
    expect(action(press('k', { tagName: 'INPUT', type: 'text' }, { ctrlKey: true }))).toBe('palette');
    expect(action(press('k', body, { ctrlKey: true, altKey: true }))).toBeNull();
  });

  it('goes home with "g" then "h", and forgets the "g" after any other key', () => {
    expect(shortcutFor(press('g'), null)).toEqual({ action: null, pending: 'g' });
    expect(shortcutFor(press('h'), 'g')).toEqual({ action: 'home', pending: null });
    expect(shortcutFor(press('j'), 'g')).toEqual({ action: null, pending: null });
    expect(action(press('h'))).toBeNull();
    expect(shortcutFor(press('h', { tagName: 'INPUT' }), 'g')).toEqual({ action: null, pending: null });
  });
});

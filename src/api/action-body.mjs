// The bodies of server-action posts, checked by scripts/server.mjs before Next.js reads them.
// Next.js parses whatever a client sends to a page as a server action's arguments (React's reply
// format): 30 MB of `[[[...` held the event loop for seconds, and anything malformed was a 500
// with a stack trace. Here a body is read up to the largest a form of the spec can send
// (src/server/form-post-limit.ts), then refused unless it is what React's client or a form
// without JavaScript sends:
// - a call from a page's script (`next-action` header): a JSON argument list as text/plain, or
//   multipart parts named as React names them (`0` the arguments, `_1_name` a FormData's fields);
// - a form posted without JavaScript (multipart to a page): `$ACTION_ID_<id>`, or
//   `$ACTION_REF_<n>` with its `$ACTION_<n>:<k>` parts (the action and its bound arguments),
//   `$ACTION_KEY`, and the form's own fields as text.
// JSON is scanned (depth and number of values) before it is parsed; its `$` strings must be those
// React's client writes for plain data and FormData: no promises, Maps, streams, blobs, server
// references or temporary references, and a reference only to a value written before it (never
// to one it sits in), so that no structure a client sends is cyclic or costs more than its size.
// Plain JavaScript: the server script imports it before anything is bundled.

/**
 * The most any spec's forms may post to a server action, and Next.js's own limit
 * (next.config.mjs serverActions.bodySizeLimit) behind this door: a spec's own figure is lower
 * unless its records hold text without a maxLength (src/server/form-post-limit.ts).
 */
export const FORM_POST_CEILING_BYTES = 8 * 1024 * 1024;

/**
 * The most the files of one form post may add (a record's file fields, sent without the API's
 * streamed upload): a spec's own figure is the sum of its file fields' maxItems x maxBytes, at most this.
 */
export const FORM_FILES_CEILING_BYTES = 64 * 1024 * 1024;

/** What a form post may hold, whatever its size. */
export const ACTION_BODY_LIMITS = {
  /** Nesting of JSON arrays and objects (a form's state is about five deep). */
  maxDepth: 32,
  /** Values in all of a body's JSON (a record form's state holds a few per field). */
  maxValues: 20_000,
  /** Parts of a multipart body (a bulk form carries two per selected row, 500 rows at most). */
  maxParts: 4_000,
  /** Arguments of one call (bound ones, the form's state, the form). */
  maxArguments: 16,
};

/** A problem with a body: a code of src/api/door-refusal.mjs and a detail. */
function problem(code, detail) {
  return { code, detail };
}

const malformed = (detail) => problem('VALIDATION_FAILED', detail);

/**
 * Whether a request is a server-action post that Next.js would parse: `fetch` (a page's script,
 * `next-action` header) or `form` (a multipart post to a page: a form without JavaScript); null
 * for anything else (route handlers and the API read their own bodies).
 */
export function actionPostKind(method, headers, kind) {
  if (String(method).toUpperCase() !== 'POST' || kind !== 'page') return null;
  if (headers['next-action'] !== undefined) return 'fetch';
  return mediaType(headers['content-type']) === 'multipart/form-data' ? 'form' : null;
}

function mediaType(header) {
  return String(header ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
}

/** The index of the quote that ends the string opened at `open`, or -1 (a quote escaped by an odd run of backslashes is inside). */
function stringEnd(text, open) {
  for (let at = text.indexOf('"', open + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/**
 * Refuses JSON nested deeper or holding more values than a form sends, without parsing it. Strings
 * are skipped by searching for their end (a form's text is most of its body).
 */
function scanJson(text, counted) {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
      if (i === -1) return malformed('The body is not valid JSON.');
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      counted.values += 1;
      if (depth > ACTION_BODY_LIMITS.maxDepth) return malformed(`The body is nested more than ${ACTION_BODY_LIMITS.maxDepth} deep.`);
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
    else if (c === 0x2c) counted.values += 1;
  }
  return counted.values > ACTION_BODY_LIMITS.maxValues
    ? malformed(`The body holds more than ${ACTION_BODY_LIMITS.maxValues} values.`)
    : null;
}

/** `$` strings React's client writes for plain values (src: react-server-dom-*-client processReply). */
const PLAIN_TAGS = /^\$(?:\$[\s\S]*|undefined|NaN|Infinity|-Infinity|-0|D[0-9T:.+\-Z]{1,40}|K[0-9a-f]{1,8})$/;
/** A reference to a value written earlier in the same part: `$<part>:<key>:<key>...`. */
const REFERENCE = /^\$([0-9a-f]{1,8})((?::[^:]+)+)$/;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Lets other requests run between the steps of a large body's check (each step is one block of work). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Parses one JSON part and checks its `$` strings and keys. `part` is the part's number (React
 * names parts in decimal and writes references to them in hex); `promise` allows the one `$@<id>`
 * a no-JavaScript form's action names its bound arguments by.
 */
async function parseJsonPart(text, part, counted, promise = false) {
  const scanned = scanJson(text, counted);
  if (scanned) return { problem: scanned };
  if (text.length > 64 * 1024) await nextTurn();
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: malformed('The body is not valid JSON.') };
  }
  // Containers already written in full, by path: what a reference may name.
  const written = new Set();
  const visit = (node, path) => {
    if (typeof node === 'string') {
      if (!node.startsWith('$') || PLAIN_TAGS.test(node) || (promise && /^\$@[0-9a-f]{1,8}$/.test(node))) return null;
      const reference = REFERENCE.exec(node);
      if (
        reference &&
        parseInt(reference[1], 16) === part &&
        written.has(reference[2]) &&
        !reference[2].split(':').some((key) => UNSAFE_KEYS.has(key))
      )
        return null;
      return malformed('The body holds a value that no form sends.');
    }
    if (node === null || typeof node !== 'object') return null;
    for (const key of Object.keys(node)) {
      if (key === '__proto__') return malformed('The body holds a value that no form sends.');
      const found = visit(node[key], `${path}:${key}`);
      if (found) return found;
    }
    written.add(path);
    return null;
  };
  const found = visit(value, '');
  return found ? { problem: found } : { value };
}

/** Whether one argument is of the kind an action takes (src/server/actions/arguments.ts). */
function isOfKind(kind, value) {
  if (kind === 'form') return typeof value === 'string' && /^\$K[0-9a-f]{1,8}$/.test(value);
  if (kind === 'text') return typeof value === 'string' && (!value.startsWith('$') || value.startsWith('$$'));
  if (kind === 'id') return typeof value === 'number' && Number.isFinite(value);
  if (kind === 'state') return value !== null && typeof value === 'object' && !Array.isArray(value);
  return true;
}

/**
 * The argument list of a call, checked against what the action takes when that is known (`kinds`).
 * A form's FormData may follow the declared arguments (React passes it to a form's action); a
 * form posted without JavaScript sends only the bound ones (`bound`): React adds the form itself.
 */
function argumentsProblem(value, kinds, bound = false) {
  if (!Array.isArray(value)) return malformed('The body is not a list of arguments.');
  if (value.length > ACTION_BODY_LIMITS.maxArguments)
    return malformed(`The body holds more than ${ACTION_BODY_LIMITS.maxArguments} arguments.`);
  if (kinds === undefined) return null;
  const expected = bound && kinds.at(-1) === 'form' ? kinds.slice(0, -1) : kinds;
  const extraForm = !bound && value.length === expected.length + 1 && isOfKind('form', value.at(-1));
  if ((value.length !== expected.length && !extraForm) || expected.some((kind, i) => !isOfKind(kind, value[i]))) {
    return malformed(`The arguments are not what this action takes (${expected.join(', ') || 'none'}).`);
  }
  return null;
}

function utf8(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The parts of a multipart body (their number checked before parsing), or a problem. */
async function multipartEntries(contentType, bytes) {
  const boundary = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(String(contentType ?? ''));
  if (!boundary) return { problem: malformed('The body is multipart without a boundary.') };
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  let parts = -1;
  for (let at = bytes.indexOf(delimiter); at !== -1; at = bytes.indexOf(delimiter, at + delimiter.length)) {
    parts += 1;
    if (parts > ACTION_BODY_LIMITS.maxParts) return { problem: malformed(`The body has more than ${ACTION_BODY_LIMITS.maxParts} parts.`) };
  }
  try {
    const form = await new Response(bytes, { headers: { 'content-type': String(contentType) } }).formData();
    // Files are a form's file fields (src/server/form-files.ts), within the spec's figure for them.
    return { entries: [...form.entries()] };
  } catch {
    return { problem: malformed('The body is not valid multipart/form-data.') };
  }
}

/** A page script's call: a JSON argument list, as text or as React's multipart parts. */
async function fetchCallProblem(contentType, bytes, kinds) {
  const counted = { values: 0 };
  const type = mediaType(contentType);
  if (type === 'text/plain') {
    const text = utf8(bytes);
    if (text === null) return malformed('The body is not valid UTF-8.');
    await nextTurn();
    const parsed = await parseJsonPart(text, 0, counted);
    return parsed.problem ?? argumentsProblem(parsed.value, kinds);
  }
  if (type !== 'multipart/form-data')
    return problem(
      'UNSUPPORTED_MEDIA_TYPE',
      "A server action takes its arguments as text/plain or multipart/form-data, as React's client sends them.",
    );
  const { entries, problem: unreadable } = await multipartEntries(contentType, bytes);
  if (unreadable) return unreadable;
  let root = false;
  for (const [name, value] of entries) {
    // A FormData argument's fields (`_<id>_<name>`) are the form's text, read by the action.
    if (/^_[0-9]{1,8}_/.test(name)) continue;
    if (!/^[0-9]{1,8}$/.test(name)) return malformed(`The body has a part "${name.slice(0, 40)}" that no call sends.`);
    const parsed = await parseJsonPart(value, Number(name), counted);
    if (parsed.problem) return parsed.problem;
    if (name === '0') {
      const wrong = argumentsProblem(parsed.value, kinds);
      if (wrong) return wrong;
      root = true;
    }
  }
  return root ? null : malformed('The body has no arguments (part "0").');
}

/** A form posted without JavaScript: the action it names must exist; its bound arguments are JSON. */
async function formPostProblem(entries, actions) {
  const known = (id) => actions.ids === null || (typeof id === 'string' && actions.ids.has(id));
  const named = entries.filter(([name]) => name.startsWith('$ACTION_ID_') || name.startsWith('$ACTION_REF_'));
  // Not an action: Next.js renders the page as for a GET, without reading the fields.
  if (named.length === 0) return null;
  if (named.length > 1) return malformed('The form names more than one action.');
  const [name] = named[0];
  const unknown = problem('NOT_FOUND', 'This action does not exist (the page may be from an earlier version: reload it).');
  if (name.startsWith('$ACTION_ID_')) {
    const id = name.slice('$ACTION_ID_'.length);
    return known(id) ? (filesProblem(actions, id) ?? argumentsProblem([], actions.argumentsOf(id), true)) : unknown;
  }
  const prefix = `$ACTION_${name.slice('$ACTION_REF_'.length)}:`;
  const parts = new Map(entries.filter(([part]) => part.startsWith(prefix)).map(([part, value]) => [part.slice(prefix.length), value]));
  const counted = { values: 0 };
  const meta = parts.has('0')
    ? await parseJsonPart(parts.get('0'), 0, counted, true)
    : { problem: malformed('The form names its action without saying which.') };
  if (meta.problem) return meta.problem;
  const { id, bound } = meta.value ?? {};
  if (Object.keys(meta.value ?? {}).some((key) => key !== 'id' && key !== 'bound') || typeof id !== 'string')
    return malformed('The form names its action in a shape no form sends.');
  if (!known(id)) return unknown;
  const tooLarge = filesProblem(actions, id);
  if (tooLarge) return tooLarge;
  if (bound === null || bound === undefined) return argumentsProblem([], actions.argumentsOf(id), true);
  const boundId = /^\$@([0-9a-f]{1,8})$/.exec(String(bound))?.[1];
  const boundPart = boundId === undefined ? undefined : String(parseInt(boundId, 16));
  if (boundPart === undefined || !parts.has(boundPart)) return malformed("The form's action is bound to arguments it does not send.");
  for (const [part, text] of parts) {
    if (part === '0') continue;
    if (!/^[0-9]{1,8}$/.test(part)) return malformed(`The body has a part "${prefix}${part.slice(0, 40)}" that no form sends.`);
    const parsed = await parseJsonPart(text, Number(part), counted);
    if (parsed.problem) return parsed.problem;
    if (part === boundPart) {
      const wrong = argumentsProblem(parsed.value, actions.argumentsOf(id), true);
      if (wrong) return wrong;
    }
  }
  return null;
}

/**
 * A body larger than a form's values may be only when its action writes a record's files: the
 * door read it up to the files' allowance, which no other action (a sign-in, say) may take.
 */
function filesProblem(actions, id) {
  if (actions.bytes === undefined || actions.valuesLimit === undefined || actions.bytes <= actions.valuesLimit) return null;
  if (actions.takesFiles?.(id)) return null;
  return problem('PAYLOAD_TOO_LARGE', `This action takes no files: its post can be at most ${actions.valuesLimit} bytes.`);
}

/**
 * What is wrong with the body of an action post of `kind` (actionPostKind), or null when Next.js
 * may read it. `actions.ids`: the build's server actions (src/api/server-action-ids.mjs), null if
 * unknown; `actions.argumentsOf(id)`: what that action takes, undefined if unknown;
 * `actions.takesFiles(id)`: whether it writes a record's files, and so may be sent more than
 * `actions.valuesLimit` (`actions.bytes`, the body's size, above it is refused otherwise);
 * `fetchedId`: the action a page's script names in its `next-action` header.
 */
export async function actionBodyProblem(kind, contentType, bytes, actions, fetchedId) {
  if (kind === 'fetch') return filesProblem(actions, fetchedId) ?? fetchCallProblem(contentType, bytes, actions.argumentsOf(fetchedId));
  const { entries, problem: unreadable } = await multipartEntries(contentType, bytes);
  return unreadable ?? formPostProblem(entries, actions);
}

// Share links: a playground state (a plain JSON object) packed into a short,
// URL-safe token and back. Used by the main page and by the embed, so it
// touches no DOM: only TextEncoder/Decoder and (De)CompressionStream.
//
// Token: "<version>.<payload>", payload = base64url (no padding) of the
// zlib-wrapped deflate ("deflate" format) of the state's UTF-8 JSON.
//
// A link comes from anywhere, so decoding trusts nothing: the token's length
// is checked before any work, and the inflated size is counted while it
// streams so a small token cannot expand into a huge string.

export const SHARE_VERSION = 1;

/** Longest token accepted or produced, in characters (48 KiB). */
export const MAX_TOKEN_CHARS = 48 * 1024;

/** Largest state accepted or produced, in bytes of UTF-8 JSON (256 KiB). */
export const MAX_STATE_BYTES = 256 * 1024;

// Compressed input is handed to the inflater in slices this small, and the
// next slice only once the output so far has been read and counted: deflate
// expands at most ~1032:1, so memory stays within ~1 MiB past the limit.
const FEED_BYTES = 1024;

/** Why a token could not be read (or a state not packed): `reason` says which. */
export class ShareError extends Error {
  /**
   * @param {"malformed"|"truncated"|"too-large"|"expands"|"unsupported"} reason
   * @param {string} message
   */
  constructor(reason, message) {
    super(message);
    this.name = "ShareError";
    this.reason = reason;
  }
}

// ---- base64url ----------------------------------------------------------

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const VALUE = new Map([...ALPHABET].map((ch, i) => [ch, i]));

function toBase64url(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, bytes.length - i + 1); // 1, 2 or 3 bytes -> 2, 3 or 4 chars
    for (let k = 0; k < chars; k++) out += ALPHABET[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

// A dangling last character (length % 4 == 1) carries 6 bits, less than a
// byte: it is dropped, as a link cut at that point is a truncation, which the
// inflater then reports as such.
function fromBase64url(text) {
  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let buffer = 0;
  let length = 0;
  for (const ch of text) {
    const value = VALUE.get(ch);
    if (value === undefined) return null;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[length++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes.subarray(0, length);
}

// ---- deflate ------------------------------------------------------------

async function readAll(readable) {
  const chunks = [];
  for (const reader = readable.getReader(); ;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return concat(chunks);
}

function concat(chunks) {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

async function deflate(bytes) {
  const stream = new CompressionStream("deflate");
  const writer = stream.writable.getWriter();
  writer.write(bytes).then(() => writer.close()).catch(() => {}); // errors surface on the reader
  return readAll(stream.readable);
}

// DecompressionStream rejects corrupt and cut-off input alike with a bare
// TypeError. They differ in *when*: corrupt data (a bad block header or
// code, a wrong Adler-32 checksum, junk after the end) fails while a slice is
// being inflated, whereas a stream cut short inflates every slice fine and
// only fails when it is closed, because its final block or checksum never
// came. So: failure after all input was accepted -> "truncated", before ->
// "malformed". A damaged byte that still decodes as valid deflate and is
// then cut off counts as truncated; the messages say "incomplete or damaged".
async function inflate(bytes) {
  const stream = new DecompressionStream("deflate");
  const writer = stream.writable.getWriter();
  let allInputAccepted = false;
  (async () => {
    for (let i = 0; i < bytes.length; i += FEED_BYTES) await writer.write(bytes.subarray(i, i + FEED_BYTES));
    allInputAccepted = true;
    await writer.close();
  })().catch(() => {}); // the same failure reaches the reader below

  const reader = stream.readable.getReader();
  const chunks = [];
  let total = 0;
  for (;;) {
    let step;
    try {
      step = await reader.read();
    } catch {
      if (allInputAccepted) throw new ShareError("truncated", "the link's data ends early: incomplete or damaged");
      throw new ShareError("malformed", "the link's data is damaged (not valid deflate)");
    }
    if (step.done) return concat(chunks);
    total += step.value.byteLength;
    if (total > MAX_STATE_BYTES) {
      reader.cancel().catch(() => {});
      // A short link whose data inflates past the limit: no link made here does that (encodeState
      // refuses such states), so it is not a valid link rather than a long one.
      throw new ShareError("expands", `the link's data expands beyond ${MAX_STATE_BYTES} bytes`);
    }
    chunks.push(step.value);
  }
}

// ---- the public codec ---------------------------------------------------

function isPlainObject(value) {
  return value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * Packs a plain object into a share token ("1.<base64url>").
 * @param {object} state anything JSON can hold, as a plain object
 * @returns {Promise<string>}
 * @throws {ShareError} "too-large" when the JSON or the token passes the limits,
 *   so every token made here can also be opened
 */
export async function encodeState(state) {
  if (!isPlainObject(state)) throw new TypeError("encodeState expects a plain object");
  const json = new TextEncoder().encode(JSON.stringify(state));
  if (json.byteLength > MAX_STATE_BYTES) {
    throw new ShareError("too-large", `the state is ${json.byteLength} bytes; at most ${MAX_STATE_BYTES} fit in a link`);
  }
  const token = `${SHARE_VERSION}.${toBase64url(await deflate(json))}`;
  if (token.length > MAX_TOKEN_CHARS) {
    throw new ShareError("too-large", `the link would be ${token.length} characters; at most ${MAX_TOKEN_CHARS} are allowed`);
  }
  return token;
}

/**
 * Unpacks a share token into the plain object it holds. Callers validate the
 * object's fields; this only guarantees a plain object within the limits.
 * @param {string} token
 * @returns {Promise<object>}
 * @throws {ShareError} with reason "too-large" (too many characters), "expands" (its data
 *   inflates past MAX_STATE_BYTES), "unsupported", "malformed" or "truncated"
 */
export async function decodeState(token) {
  if (typeof token !== "string") throw new ShareError("malformed", "a share token is a string");
  if (token.length > MAX_TOKEN_CHARS) {
    throw new ShareError("too-large", `the link holds ${token.length} characters; at most ${MAX_TOKEN_CHARS} are accepted`);
  }
  const dot = token.indexOf(".");
  const version = dot < 0 ? "" : token.slice(0, dot);
  if (!/^\d{1,6}$/.test(version)) throw new ShareError("malformed", "the link has no version prefix");
  if (Number(version) !== SHARE_VERSION) {
    throw new ShareError("unsupported", `the link has format version ${version}; this page reads version ${SHARE_VERSION}`);
  }
  const bytes = fromBase64url(token.slice(dot + 1));
  if (bytes === null) throw new ShareError("malformed", "the link's data has characters outside base64url");
  if (bytes.length === 0) throw new ShareError("malformed", "the link holds no data");

  const json = await inflate(bytes);
  let state;
  try {
    state = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json));
  } catch {
    throw new ShareError("malformed", "the link's data is not UTF-8 JSON");
  }
  if (!isPlainObject(state)) throw new ShareError("malformed", "the link's data is not a JSON object");
  return state;
}

const HASH_KEY = "share=";

/**
 * The URL fragment for a state: "#share=<token>".
 * @param {object} state
 * @returns {Promise<string>}
 */
export async function shareHash(state) {
  return `#${HASH_KEY}${await encodeState(state)}`;
}

/**
 * Reads a location.hash: null when it holds no share (no "share=" part among
 * its &-separated parts), else the decoded state.
 * @param {string} hash e.g. location.hash, with or without the leading "#"
 * @returns {Promise<object|null>}
 * @throws {ShareError} when the share is there but cannot be opened
 */
export async function readShareHash(hash) {
  const part = String(hash || "").replace(/^#/, "").split("&").find((p) => p.startsWith(HASH_KEY));
  if (part === undefined) return null;
  let token = part.slice(HASH_KEY.length);
  try {
    token = decodeURIComponent(token); // some apps escape what they pass on; base64url needs none
  } catch {
    // A stray "%": left as is, and reported as malformed by the decoder.
  }
  return decodeState(token);
}

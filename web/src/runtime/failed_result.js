// Result messages. Python's answer crosses from the worker as its JSON text
// (`json`), parsed where it is used: a string is copied across at a fraction
// of what the structured clone of the parsed object costs (a micrograd run's
// 2.9 MB: about 3 ms against 30 ms, besides the worker's parse). A request
// Python never answered (the worker failed on it, or the runtime was restarted
// under it) gets `failedResult`, already an object of the same shape, so
// callers handle both alike after `readResult`.

/**
 * The result a worker's result message carries, as an object.
 * @param {object} msg `{id, type: "result", json}` or a `failedResult`
 * @returns {object} `{id, type: "result", ok, stdout, stderr, error, duration_ms, ...}`
 */
export function readResult(msg) {
  if (typeof msg.json !== "string") return msg;
  try {
    return { ...JSON.parse(msg.json), id: msg.id, type: "result" };
  } catch (err) {
    return failedResult(msg.id, "InternalError", `the result could not be read: ${err}`);
  }
}

/**
 * @param {number} id the request's id
 * @param {string} type the error type, e.g. "Restarted" or "InternalError"
 * @param {string} message
 * @param {string} [traceback]
 */
export function failedResult(id, type, message, traceback = "") {
  return {
    id,
    type: "result",
    ok: false,
    stdout: "",
    stderr: "",
    error: { type, message, lineno: null, traceback },
    duration_ms: 0,
  };
}

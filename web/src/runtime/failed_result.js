// A result message for a request that Python never answered: the worker
// failed on it, or the runtime was restarted under it. Same shape as a real
// result, so callers handle both alike.

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

// Which editor line a quick fix from the graph replaces, and with what. Python wrote the fix
// from the code that ran, with `comment`: how many characters at the end of `before` and
// `after` are the line's comment (quick_fixes.py's with_comment), so the same code under
// another comment (the lesson's comments follow the language) takes the fix too, keeping its
// own comment.

/**
 * The fix as it applies to `current`: its own line, or the same code with another comment.
 * @param {object} fix {before, after, comment} of the fix
 * @param {string|null} current the editor's text of the fix's line
 * @returns {{expected: string, text: string}} the line to replace and its replacement
 */
export function fixForComment(fix, current) {
  const tail = fix.comment || 0;
  const code = fix.before.slice(0, fix.before.length - tail);
  if (current === fix.before || !tail || current === null || !current.startsWith(code) || !current.slice(code.length).startsWith("#")) {
    return { expected: fix.before, text: fix.after };
  }
  return { expected: current, text: fix.after.slice(0, fix.after.length - tail) + current.slice(code.length) };
}

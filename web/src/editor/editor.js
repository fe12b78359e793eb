// The CodeMirror 6 editor: Python highlighting, Ctrl/Cmd-Enter to run, and
// a marker on the line where the last error happened.

import { basicSetup } from "codemirror";
import { indentWithTab, isolateHistory } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { indentUnit } from "@codemirror/language";
import { EditorState, Prec, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView, keymap } from "@codemirror/view";

const setErrorLine = StateEffect.define();

const errorLineDecoration = Decoration.line({ class: "cm-error-line" });

// Holds at most one decorated line; any edit clears it, since the line
// number it refers to may no longer be right.
const errorLineField = StateField.define({
  create: () => Decoration.none,
  update(value, tr) {
    for (const effect of tr.effects) {
      if (effect.is(setErrorLine)) {
        if (effect.value == null) return Decoration.none;
        const line = tr.state.doc.line(effect.value);
        return Decoration.set([errorLineDecoration.range(line.from)]);
      }
    }
    return tr.docChanged ? Decoration.none : value;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "14px" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.55" },
  ".cm-content": { padding: "10px 0" },
  ".cm-gutters": { background: "var(--panel-2)", borderRight: "1px solid var(--line)", color: "var(--muted)" },
  // The active line's number is darker: muted grey on the highlight falls short of AA contrast.
  ".cm-activeLineGutter": { background: "var(--active-gutter)", color: "var(--text)" },
  ".cm-activeLine": { background: "var(--active-line)" },
  "&.cm-focused": { outline: "none" },
});

/**
 * Creates the editor.
 * @param {HTMLElement} parent
 * @param {object} options
 * @param {string} options.doc initial text
 * @param {() => void} options.onRun called on Ctrl/Cmd-Enter
 * @param {(text: string) => void} options.onChange called after every edit
 * @param {string} options.label accessible name
 * @param {boolean} [options.readOnly] no editing (selecting and copying still work)
 * @param {Array} [options.extensions] more CodeMirror extensions (the page's timeline marks)
 */
export function createEditor(parent, { doc, onRun, onChange, label, readOnly = false, extensions = [] }) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => (onRun(), true) }])),
        basicSetup,
        // Tab indents, as in any code editor; Escape then Tab leaves the editor (CodeMirror's
        // tab-focus mode), so keyboard users are never trapped.
        keymap.of([indentWithTab]),
        python(),
        indentUnit.of("    "),
        errorLineField,
        extensions,
        theme,
        EditorState.readOnly.of(readOnly),
        // An explicit tab stop, so checkers (and some screen readers) see the scroller's content as focusable.
        EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });

  return {
    view,
    getCode: () => view.state.doc.toString(),
    setCode(text) {
      // its own undo step, never merged with an edit that follows within the history's 500 ms
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text },
        annotations: isolateHistory.of("full") });
    },
    /** The text of line `lineno` (1-based), or null past the end. */
    lineText(lineno) {
      return lineno >= 1 && lineno <= view.state.doc.lines ? view.state.doc.line(lineno).text : null;
    },
    /** Replaces line `lineno` (1-based) if it still reads `expected`, as one undoable edit; true if done. */
    replaceLine(lineno, expected, text) {
      if (lineno < 1 || lineno > view.state.doc.lines) return false;
      const line = view.state.doc.line(lineno);
      if (line.text !== expected) return false;
      view.dispatch({ changes: { from: line.from, to: line.to, insert: text }, annotations: isolateHistory.of("full") });
      return true;
    },
    /** The 1-based line marked as the last error's, or null. */
    errorLine() {
      const marks = view.state.field(errorLineField);
      const cursor = marks.iter();
      return cursor.value ? view.state.doc.lineAt(cursor.from).number : null;
    },
    /** Marks (and scrolls to) a 1-based line, or clears the mark with null. */
    markError(lineno) {
      const valid = lineno != null && lineno >= 1 && lineno <= view.state.doc.lines;
      const effects = [setErrorLine.of(valid ? lineno : null)];
      if (valid) {
        effects.push(EditorView.scrollIntoView(view.state.doc.line(lineno).from, { y: "center" }));
      }
      view.dispatch({ effects });
    },
    setLabel(text) {
      view.contentDOM.setAttribute("aria-label", text);
    },
    focus: () => view.focus(),
  };
}

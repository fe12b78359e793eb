// The editor's side of time travel: the line of the timeline's current step
// (cm-step-line), the line(s) linked to the selected graph node
// (cm-linked-line), gutter markers on lines that made nodes or ran a
// backward/grad pass, the line the cursor is on (reported, so the graph can
// highlight its nodes), and a hover tooltip over variable names that asks
// Python for the tensor at the current step.

import { RangeSet, StateEffect, StateField } from "@codemirror/state";
import { Decoration, EditorView, GutterMarker, gutter, hoverTooltip } from "@codemirror/view";

const setStepLine = StateEffect.define();
const setLinkedLines = StateEffect.define();
const setLineMarks = StateEffect.define();

const stepDeco = Decoration.line({ class: "cm-step-line" });
const linkedDeco = Decoration.line({ class: "cm-linked-line" });

function lineDecorations(doc, lines, deco) {
  const ranges = [...new Set(lines)].filter((n) => n >= 1 && n <= doc.lines).sort((a, b) => a - b)
    .map((n) => deco.range(doc.line(n).from));
  return Decoration.set(ranges);
}

/** A line-decoration field set by `effect` (a list of 1-based lines); edits map it along. */
function linesField(effect, deco) {
  return StateField.define({
    create: () => Decoration.none,
    update(value, tr) {
      for (const e of tr.effects) if (e.is(effect)) return lineDecorations(tr.state.doc, e.value, deco);
      return value.map(tr.changes);
    },
    provide: (field) => EditorView.decorations.from(field),
  });
}

const stepField = linesField(setStepLine, stepDeco);
const linkedField = linesField(setLinkedLines, linkedDeco);

class LineMarker extends GutterMarker {
  constructor(kind, title) {
    super();
    this.kind = kind;
    this.title = title;
  }

  eq(other) {
    return other.kind === this.kind && other.title === this.title;
  }

  toDOM() {
    const el = document.createElement("span");
    el.className = `cm-tl-mark cm-tl-${this.kind}`;
    el.textContent = this.kind === "backward" ? "∇" : "●";
    el.title = this.title;
    el.setAttribute("aria-hidden", "true");
    return el;
  }
}

const marksField = StateField.define({
  create: () => RangeSet.empty,
  update(value, tr) {
    for (const e of tr.effects) {
      if (!e.is(setLineMarks)) continue;
      const doc = tr.state.doc;
      const ranges = e.value.filter((m) => m.line >= 1 && m.line <= doc.lines).sort((a, b) => a.line - b.line)
        .map((m) => new LineMarker(m.kind, m.title).range(doc.line(m.line).from));
      return RangeSet.of(ranges);
    }
    return value.map(tr.changes);
  },
});

/**
 * The extensions, and a controller to drive them once the editor exists.
 * @param {object} hooks
 * @param {(line: number) => void} hooks.onCursorLine the cursor moved to another line (1-based)
 * @param {(name: string) => Promise<HTMLElement|null>} hooks.inspect the tooltip's content for a
 *     variable name (null: no tooltip)
 */
export function timelineMarks(hooks) {
  let lastLine = null;
  const extensions = [
    stepField,
    linkedField,
    marksField,
    gutter({ class: "cm-tl-gutter", markers: (view) => view.state.field(marksField) }),
    EditorView.updateListener.of((update) => {
      if (!update.selectionSet && !update.focusChanged) return;
      if (!update.view.hasFocus) return;
      const line = update.state.doc.lineAt(update.state.selection.main.head).number;
      if (line !== lastLine || update.focusChanged) {
        lastLine = line;
        hooks.onCursorLine(line);
      }
    }),
    hoverTooltip(async (view, pos) => {
      const name = nameAt(view.state, pos);
      if (!name) return null;
      const dom = await hooks.inspect(name.text);
      if (!dom) return null;
      return { pos: name.from, end: name.to, above: true, create: () => ({ dom }) };
    }, { hoverTime: 350 }),
  ];
  return {
    extensions,
    /** Binds the controller to the editor's view. */
    controller(view) {
      const dispatch = (effects) => view.dispatch({ effects });
      return {
        markStep(line) {
          const effects = [setStepLine.of(line ? [line] : [])];
          // Scrolling makes CodeMirror measure at once: only when the line is out of sight.
          if (line && line <= view.state.doc.lines && !lineInSight(view, line)) {
            effects.push(EditorView.scrollIntoView(view.state.doc.line(line).from, { y: "nearest" }));
          }
          dispatch(effects);
        },
        markLinked(lines) {
          const effects = [setLinkedLines.of(lines)];
          const first = lines.find((n) => n >= 1 && n <= view.state.doc.lines);
          if (first) effects.push(EditorView.scrollIntoView(view.state.doc.line(first).from, { y: "nearest" }));
          dispatch(effects);
        },
        setMarks(marks) {
          dispatch([setLineMarks.of(marks)]);
        },
      };
    },
  };
}

/** True when line `n` is on screen, by CodeMirror's last measure (reading the layout would force it). */
function lineInSight(view, n) {
  const line = view.state.doc.line(n);
  return view.visibleRanges.some((range) => range.from <= line.from && line.to <= range.to);
}

/** The (dotted) name under `pos`: "x", or "model.weight" when hovering its last part. */
function nameAt(state, pos) {
  const line = state.doc.lineAt(pos);
  const text = line.text;
  let start = pos - line.from;
  let end = start;
  const word = /[\w.]/;
  while (start > 0 && word.test(text[start - 1])) start -= 1;
  while (end < text.length && /\w/.test(text[end])) end += 1;
  const found = text.slice(start, end).replace(/^\.+|\.+$/g, "");
  if (!found || !/^[A-Za-z_]/.test(found)) return null;
  const offset = text.slice(start, end).indexOf(found);
  return { text: found, from: line.from + start + offset, to: line.from + start + offset + found.length };
}

// Pan (drag) and zoom (wheel, buttons, fit) of an SVG drawing: the transform of its viewport
// group. The graph views own one each; a tap that was no drag goes back to them as a click.

const MIN_ZOOM = 0.08;
export const MIN_FIT = 0.42; // fitting never shrinks text below about 5 px (embeds size their graph by it too)
const MAX_ZOOM = 3;
const DRAG_THRESHOLD = 4;

export class PanZoom {
  /**
   * @param {object} parts
   * @param {SVGSVGElement} parts.svg the drawing, which takes the wheel and the pointer
   * @param {HTMLElement} parts.canvas its box (its size is the room the drawing has)
   * @param {SVGGElement} parts.viewport the group the transform moves
   * @param {(event: PointerEvent) => void} parts.onTap a pointer went down and up without a drag
   */
  constructor({ svg, canvas, viewport, onTap }) {
    this.svg = svg;
    this.canvas = canvas;
    this.viewport = viewport;
    this.onTap = onTap;
    this.view = { k: 1, x: 0, y: 0 };
    this.userMoved = false; // panned or zoomed by hand: a resize then leaves the view alone
    this.wire();
  }

  /**
   * From now on the drawing takes its canvas's size in px, not the style sheet's 100%: Chromium
   * lays a percentage-sized SVG out anew, every text in it, whenever anything else in its pane is
   * laid out (15-30 ms on a 348-node graph for a timeline step's label or a gradient row). Only for
   * a canvas whose size does not follow its content (the page's; an embed's grows to fit its graph).
   */
  pinSize() {
    new ResizeObserver(([entry]) => {
      const { width, height } = entry.contentRect;
      if (!width || !height) return; // hidden (the forward view shown instead): sized when shown
      this.svg.style.width = `${width}px`;
      this.svg.style.height = `${height}px`;
    }).observe(this.canvas);
  }

  apply() {
    const { k, x, y } = this.view;
    this.viewport.setAttribute("transform", `translate(${x},${y}) scale(${k})`);
  }

  /**
   * Shows the whole drawing, or, when it cannot be shown readably, its lowest node centred.
   * @param {{width: number, height: number, nodes: {x: number, y: number, height: number}[]}} layout
   * @param {number} reserved px kept free at the bottom of the canvas (a legend over it)
   */
  fit(layout, reserved) {
    const box = this.canvas.getBoundingClientRect();
    const width = box.width || 600;
    const height = Math.max(80, (box.height || 400) - reserved);
    // Never smaller than readable: a graph that does not fit shows its output end (the root,
    // where backward starts), centred, and the rest is a pan or a zoom away.
    const k = Math.max(MIN_FIT, Math.min(1.15, width / layout.width, height / layout.height));
    const w = layout.width * k;
    const hgt = layout.height * k;
    if (w <= width && hgt <= height) {
      this.view = { k, x: (width - w) / 2, y: (height - hgt) / 2 };
    } else {
      const focus = layout.nodes.reduce((low, n) => (n.y > low.y ? n : low));
      this.view = {
        k,
        x: w <= width ? (width - w) / 2 : width / 2 - focus.x * k,
        y: hgt <= height ? (height - hgt) / 2 : height - (focus.y + focus.height / 2 + 16) * k,
      };
    }
    this.userMoved = false;
    this.apply();
  }

  zoomBy(factor, at) {
    const box = this.canvas.getBoundingClientRect();
    const cx = at ? at.x : box.width / 2;
    const cy = at ? at.y : box.height / 2;
    const k = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, this.view.k * factor));
    const ratio = k / this.view.k;
    this.view = { k, x: cx - (cx - this.view.x) * ratio, y: cy - (cy - this.view.y) * ratio };
    this.userMoved = true;
    this.apply();
  }

  wire() {
    const { svg, canvas } = this;
    svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const box = canvas.getBoundingClientRect();
      this.zoomBy(Math.exp(-event.deltaY * 0.0015), { x: event.clientX - box.left, y: event.clientY - box.top });
    }, { passive: false });
    let drag = null;
    svg.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      drag = { x: event.clientX, y: event.clientY, vx: this.view.x, vy: this.view.y, moved: false, id: event.pointerId };
    });
    svg.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      if (!drag.moved) {
        drag.moved = true;
        svg.setPointerCapture(drag.id);
        canvas.classList.add("panning");
      }
      this.view = { ...this.view, x: drag.vx + dx, y: drag.vy + dy };
      this.userMoved = true;
      this.apply();
    });
    const end = (event) => {
      if (!drag) return;
      const moved = drag.moved;
      drag = null;
      canvas.classList.remove("panning");
      if (moved || event.type === "pointercancel") return;
      this.onTap(event);
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
  }
}

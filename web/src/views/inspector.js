// The editor's hover tooltip over a variable name: the tensor as Session.inspect
// recorded it at the timeline's current step (value, shape, dtype,
// requires_grad, grad_fn, .grad, _version).

import { h, shapeText } from "./dom.js";
import { preview } from "./timeline_state.js";

const py = (b) => (b ? "True" : "False");

/**
 * The tooltip's element for an inspect answer, or null when the name is no tensor then.
 * @param {object} answer Session.inspect's JSON
 * @param {object} t the current language's strings
 */
export function inspectorElement(answer, t) {
  if (!answer || !answer.ok || !answer.bound || !answer.tensor) return null;
  const tensor = answer.tensor;
  const value = tensor.value ? preview(tensor.value).text : "";
  const grad = tensor.grad ? preview(tensor.grad).text : "None";
  const row = (label, text, key) => h("div", { class: "insp-row", "data-field": key },
    h("dt", { text: label }), h("dd", {}, h("code", { text })));
  return h("div", { class: "tensor-inspector", "data-testid": "tensor-inspector", role: "tooltip" },
    h("div", { class: "insp-head" }, h("code", { class: "insp-name", text: answer.name }),
      h("span", { class: "muted", text: t.inspAt(answer.at_step ?? answer.step) })),
    h("dl", {},
      row(t.gValue, value, "value"),
      row(t.gShape, shapeText(tensor.shape), "shape"),
      row(t.dDtype, tensor.dtype, "dtype"),
      row(t.gRequiresGrad, py(tensor.requires_grad), "requires_grad"),
      row(t.gGradFn, tensor.grad_fn ? `<${tensor.grad_fn}>` : "None", "grad_fn"),
      row(t.gGrad, grad, "grad"),
      row(t.dVersion, String(tensor.version), "version")));
}

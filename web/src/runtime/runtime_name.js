// The name of the page's current shared runtime (a SharedWorker name). Stop
// moves every embed to a new one and stores it here, so that embeds (and the
// holder documents, shared_port.js) loaded later join the new runtime too.

const NAME_KEY = "autograd-playground:runtime-name";
export const DEFAULT_RUNTIME_NAME = "autograd-playground";

export function storedRuntimeName() {
  try {
    return localStorage.getItem(NAME_KEY) || DEFAULT_RUNTIME_NAME;
  } catch {
    return DEFAULT_RUNTIME_NAME;
  }
}

export function storeRuntimeName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // Without storage, embeds loaded later join the default runtime: still correct, only not shared.
  }
}

// What survives a reload: the language, the chosen lesson and the user's
// edited code for each lesson (only where it differs from the original).
// Storage may be unavailable (privacy modes); the page then simply forgets.

const KEY = "autograd-playground:v1";

export function loadSettings(defaults) {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  return {
    lang: typeof saved.lang === "string" ? saved.lang : defaults.lang,
    lesson: typeof saved.lesson === "string" ? saved.lesson : defaults.lesson,
    drafts: saved.drafts && typeof saved.drafts === "object" ? saved.drafts : {},
  };
}

export function saveSettings(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // Quota exceeded or storage disabled: keep working without persistence.
  }
}

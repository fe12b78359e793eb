// The lesson picker and the lesson's explanation beside the editor, drawn in the page's
// language; main.js decides when (a lesson chosen, the language switched).

import { LESSONS } from "./lessons.js";

/**
 * @param {HTMLSelectElement} select the picker
 * @param {string} lang the page's language
 * @param {string} current the chosen lesson's id
 */
export function fillLessonPicker(select, lang, current) {
  select.replaceChildren(
    ...LESSONS.map((lesson, index) => {
      const option = document.createElement("option");
      option.value = lesson.id;
      option.textContent = `${index + 1}. ${lesson.title[lang]}`;
      return option;
    }),
  );
  select.value = current;
}

/**
 * @param {object} lesson lessons.js's lesson
 * @param {string} lang the page's language
 * @param {object} els {title, text} elements of the page
 */
export function showExplanation(lesson, lang, els) {
  els.title.textContent = lesson.title[lang];
  els.text.textContent = lesson.explain[lang];
  keyboardScrollable(els.text);
}

// A lesson text taller than its box scrolls; keyboard users must reach it to scroll it
// (axe: scrollable-region-focusable), but a short one stays out of the tab order.
const scrollWatch = new ResizeObserver((entries) => entries.forEach((e) => keyboardScrollable(e.target)));
function keyboardScrollable(el) {
  const scrolls = el.scrollHeight > el.clientHeight + 1;
  if (scrolls) el.setAttribute("tabindex", "0");
  else el.removeAttribute("tabindex");
  scrollWatch.observe(el);
}

// Lessons: one runnable PyTorch snippet per idea from the study notes.
// The data (code, bilingual explanation, and the numbers each lesson must
// print) lives in lessons.json so the Python tests can check it too. Each
// lesson's code comes in English and, with the same code and Chinese
// comments, in Chinese (code_zh).
import data from "./lessons.json";

const joined = (lines) => lines.join("\n") + "\n";

export const LESSONS = data.lessons.map((lesson) => ({
  ...lesson,
  code: joined(lesson.code),
  codes: { en: joined(lesson.code), zh: joined(lesson.code_zh || lesson.code) },
}));

export function lessonById(id) {
  return LESSONS.find((lesson) => lesson.id === id) || null;
}

/** The lesson's code with its comments in `lang`. */
export function lessonCode(lesson, lang) {
  return lesson.codes[lang] || lesson.code;
}

/** True when `code` is the lesson's own code in some language: the user has not edited it. */
export function isLessonCode(lesson, code) {
  return Object.values(lesson.codes).includes(code);
}

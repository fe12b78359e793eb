// Lessons: one runnable PyTorch snippet per idea from the study notes.
// The data (code, bilingual explanation, and the numbers each lesson must
// print) lives in lessons.json so the Python tests can check it too.
import data from "./lessons.json";

export const LESSONS = data.lessons.map((lesson) => ({
  ...lesson,
  code: lesson.code.join("\n") + "\n",
}));

export function lessonById(id) {
  return LESSONS.find((lesson) => lesson.id === id) || null;
}

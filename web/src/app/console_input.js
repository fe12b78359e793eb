// The console's input line: Enter runs the line typed, ↑ and ↓ walk through the lines entered
// before, as a shell's history does.

/**
 * @param {HTMLInputElement} input the console's input
 * @param {(src: string) => void} evaluate runs one entered line
 */
export function wireConsoleInput(input, evaluate) {
  const history = [];
  let cursor = 0;
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.ctrlKey && !event.metaKey && input.value.trim()) {
      event.preventDefault();
      const src = input.value;
      history.push(src);
      cursor = history.length;
      input.value = "";
      evaluate(src);
    } else if (event.key === "ArrowUp" && cursor > 0) {
      event.preventDefault();
      input.value = history[--cursor];
    } else if (event.key === "ArrowDown" && cursor < history.length) {
      event.preventDefault();
      cursor += 1;
      input.value = history[cursor] ?? "";
    }
  });
}

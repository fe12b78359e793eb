// Strings of the compact embed (embed.html), merged over the page's STRINGS.

export const EMBED_STRINGS = {
  en: {
    embedLabel: "Live PyTorch autograd example",
    exampleNumber: (n) => `PyTorch autograd example ${n}`,
    idle: "Python loads on first Run",
    expand: "Expand",
    collapse: "Collapse",
    expandTitle: "Show a bigger graph and the gradient table",
    outputEmpty: "Press Run to see the output.",
    restartedByOther: "Python was restarted because an example elsewhere on this page was stopped: variables were reset. Your code is kept.",
    badEmbed: (message) => `This example could not be read (${message}).`,
  },
  zh: {
    embedLabel: "可运行的 PyTorch 自动求导示例",
    exampleNumber: (n) => `PyTorch 自动求导示例 ${n}`,
    idle: "首次运行时加载 Python",
    expand: "展开",
    collapse: "收起",
    expandTitle: "显示更大的计算图和梯度表",
    outputEmpty: "点击“运行”查看输出。",
    restartedByOther: "本页另一个示例被停止，Python 已重启：变量都被清除，代码保留。",
    badEmbed: (message) => `无法读取这个示例（${message}）。`,
  },
};

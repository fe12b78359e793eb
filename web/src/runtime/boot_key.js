// Where boot.js leaves the worker it started early, for main.js (worker_handle.js) to adopt.
export const BOOT_KEY = "autogradPlaygroundBoot";

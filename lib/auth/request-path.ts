/** Set by proxy.ts on every page request: the path and query asked for, so sign-in can return there. */
export const requestPathHeader = "x-console-path";

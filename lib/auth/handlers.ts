import "server-only";
import { handlers } from "./config";

/** Auth.js's own routes (sign-in callbacks, session, sign-out, CSRF), mounted at app/api/auth/[...nextauth]. */
export const { GET, POST } = handlers;

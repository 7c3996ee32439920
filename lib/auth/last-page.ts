/** The cookie holding the last console page shown in this browser (components/console/last-page.tsx). */
export const lastPageCookie = "console-last-page";

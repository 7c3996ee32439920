import type { ButtonHTMLAttributes } from "react";

const variants = {
  primary: "bg-accent text-accent-fg hover:brightness-110",
  secondary: "border border-line bg-surface text-fg hover:bg-surface-2",
  danger: "bg-red-700 text-white hover:bg-red-600",
} as const;

/** `compact` matches the list toolbars' small controls (column picker, pager), so a toolbar lines up. */
const sizes = {
  regular: "rounded-md px-3 py-1.5 text-sm",
  compact: "rounded px-2.5 py-1 text-xs",
} as const;

export function Button({
  variant = "primary",
  size = "regular",
  className = "",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof variants; size?: keyof typeof sizes }) {
  return (
    <button
      className={`inline-flex items-center justify-center font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus disabled:cursor-not-allowed disabled:opacity-50 ${sizes[size]} ${variants[variant]} ${className}`}
      {...props}
    />
  );
}
